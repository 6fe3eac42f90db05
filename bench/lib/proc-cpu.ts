import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime/stime (USER_HZ, 100 on Linux). */
const HZ = 100;

/** utime + stime of a process, in ms (`sys`: stime alone); 0 where /proc cannot tell (not Linux). */
export function cpuOf(pid: number, sys = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((sys ? 0 : Number(f[11])) + Number(f[12])) * (1000 / HZ);
  } catch {
    return 0;
  }
}
