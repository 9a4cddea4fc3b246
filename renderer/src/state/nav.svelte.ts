/** Which of the app's views is open: the explorer (a trace) or the dashboard (a set's runs). */
export type View = 'explorer' | 'dashboard';

export class Nav {
  view = $state<View>('explorer');
}
