/** The annotator a command acts as: --annotator, else $STEPSCOPE_ANNOTATOR, else the login name. */
import { userInfo } from 'node:os';
import { annotatorName } from '../contract/annotations.js';
import { checkedOption } from './command.js';

export function annotatorOption(values: Record<string, unknown>, cmd: string): string {
  const given = checkedOption(values, 'annotator', cmd, annotatorName);
  if (given !== undefined) return given;
  const env = process.env.STEPSCOPE_ANNOTATOR;
  return annotatorName(env && env.trim() ? env.trim() : userInfo().username, '--annotator');
}
