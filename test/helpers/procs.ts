/** Processes seen through /proc (Linux), for tests of what a command leaves running. */
import { readdirSync, readFileSync } from 'node:fs';

/** The state letter and parent pid of a process, from /proc/<pid>/stat; null once it is gone. */
function stat(pid: number | string): { state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Whether a process exists and is not a zombie (one not reaped yet has done all it will). */
export function running(pid: number): boolean {
  const s = stat(pid);
  return s !== null && s.state !== 'Z';
}

/** Live (not zombie) descendants of `root`. */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (s && s.state !== 'Z') parent.set(Number(name), s.ppid);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, pp] of parent) {
      if (pp !== p) continue;
      out.push(pid);
      walk(pid);
    }
  };
  walk(root);
  return out;
}
