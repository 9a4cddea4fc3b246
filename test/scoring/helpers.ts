/** Shared by the scoring tests. */

/** Whether a process with this id exists (a reaped one does not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
