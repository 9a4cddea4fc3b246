/**
 * The app's settings for "Ask the model" (docs/explorer.md): the OpenAI-compatible endpoint,
 * the model name, the NAME of the environment variable holding the key (never the key: the
 * server or the main process reads it), samples and temperature. Kept in the page's
 * localStorage; requests go through the API (askModel), never from the page.
 */
export interface AppModelSettings {
  endpoint: string;
  model: string;
  apiKeyEnv: string;
  samples: number;
  temperature: number;
}

const KEY = 'stepscope.model-settings';
export const DEFAULT_MODEL_SETTINGS: AppModelSettings = {
  endpoint: '',
  model: '',
  apiKeyEnv: '',
  samples: 1,
  temperature: 0,
};

export function loadModelSettings(): AppModelSettings {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    const v = raw ? (JSON.parse(raw) as Partial<AppModelSettings>) : {};
    const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
    const str = (x: unknown) => (typeof x === 'string' ? x : '');
    return {
      endpoint: str(v.endpoint),
      model: str(v.model),
      apiKeyEnv: str(v.apiKeyEnv),
      samples: num(v.samples, 1),
      temperature: num(v.temperature, 0),
    };
  } catch {
    return { ...DEFAULT_MODEL_SETTINGS };
  }
}

export function saveModelSettings(s: AppModelSettings): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(s));
  } catch {
    // a page without storage keeps them for the session
  }
}
