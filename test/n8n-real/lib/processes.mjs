// Supervised child processes: each in its own process group, output to a log file, a pid file
// while it runs (so the step's shell trap can kill what a dying driver left behind), stopped
// with a polite signal then SIGKILL, and always stopped when the driver ends.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Peak and current resident memory of a live process, in MiB (from /proc/<pid>/status). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
    return { peakMiB: kib('VmHWM') / 1024, rssMiB: kib('VmRSS') / 1024 };
  } catch {
    return { peakMiB: Number.NaN, rssMiB: Number.NaN };
  }
}

const killGroup = (pid, signal) => {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
};

export class Proc {
  constructor({ name, child, logFile, pidFile, stopSignal }) {
    this.name = name;
    this.child = child;
    this.pid = child.pid;
    this.logFile = logFile;
    this.pidFile = pidFile;
    this.stopSignal = stopSignal;
    this.exitCode = undefined;
    this.exitSignal = undefined;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        rmSync(pidFile, { force: true });
        resolve({ code, signal });
      });
    });
  }

  get running() {
    return this.exitCode === undefined && this.exitSignal === undefined;
  }

  /** The log so far (for failure messages: the tail). */
  log(tailChars = Number.POSITIVE_INFINITY) {
    try {
      const text = readFileSync(this.logFile, 'utf8');
      return Number.isFinite(tailChars) ? text.slice(-tailChars) : text;
    } catch {
      return '';
    }
  }

  memory() {
    return memoryOf(this.pid);
  }

  /** Sends a signal to the whole process group. */
  signal(signal) {
    return killGroup(this.pid, signal);
  }

  /** Polite signal, then SIGKILL after `graceMs`. Resolves when the process has exited. */
  async stop({ graceMs = 15_000 } = {}) {
    if (!this.running) return this.exited;
    this.signal(this.stopSignal);
    const exited = await Promise.race([this.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!exited) {
      this.signal('SIGKILL');
      await this.exited;
    }
    // Children of the group leader (if any) go too.
    killGroup(this.pid, 'SIGKILL');
    return this.exited;
  }

  /** SIGKILL now (a crash), whole group. */
  async crash() {
    this.signal('SIGKILL');
    return this.exited;
  }
}

export class Supervisor {
  /** @param {string} dir where logs/ and pids/ go */
  constructor(dir) {
    this.logDir = join(dir, 'logs');
    this.pidDir = join(dir, 'pids');
    mkdirSync(this.logDir, { recursive: true });
    mkdirSync(this.pidDir, { recursive: true });
    /** @type {Proc[]} */
    this.procs = [];
    this.#installExitHooks();
  }

  /**
   * Starts `command args` in its own process group with stdout+stderr appended to
   * logs/<name>.log. `uid`/`gid` run it as another user (root only). `stopSignal` is what
   * `stop()` sends first (SIGTERM; SIGINT is Postgres's fast shutdown).
   */
  spawn(name, command, args, { env = process.env, cwd, uid, gid, stopSignal = 'SIGTERM' } = {}) {
    const logFile = join(this.logDir, `${name}.log`);
    const fd = openSync(logFile, 'a');
    let child;
    try {
      child = spawn(command, args, { env, cwd, uid, gid, detached: true, stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
    const pidFile = join(this.pidDir, `${name}.pid`);
    writeFileSync(pidFile, String(child.pid));
    const proc = new Proc({ name, child, logFile, pidFile, stopSignal });
    child.on('error', () => undefined);
    this.procs.push(proc);
    return proc;
  }

  /**
   * Samples every running process's resident memory every `intervalMs` into `this.memory`
   * ({name: [[ms since start, MiB], ...]}); writes memory.csv with `writeMemoryCsv()`.
   * Returns a function that stops sampling.
   */
  sampleMemory(intervalMs = 1000) {
    const started = Date.now();
    this.memory ??= {};
    const timer = setInterval(() => {
      for (const proc of this.procs) {
        if (!proc.running) continue;
        const { rssMiB } = proc.memory();
        if (!Number.isFinite(rssMiB)) continue;
        this.memory[proc.name] ??= [];
        this.memory[proc.name].push([Date.now() - started, Math.round(rssMiB)]);
      }
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  writeMemoryCsv(file) {
    const lines = ['process,ms,rss_mib'];
    for (const [name, samples] of Object.entries(this.memory ?? {})) {
      for (const [ms, mib] of samples) lines.push(`${name},${ms},${mib}`);
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
  }

  /** Stops everything still running, newest first (n8n before the services it needs). */
  async stopAll({ graceMs } = {}) {
    for (const proc of [...this.procs].reverse()) {
      if (proc.running) await proc.stop({ graceMs });
    }
  }

  #installExitHooks() {
    // Last resort, synchronous: whatever is still running when the driver exits.
    process.once('exit', () => {
      for (const proc of this.procs) if (proc.running) killGroup(proc.pid, 'SIGKILL');
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.once(signal, () => {
        console.log(`FAIL supervisor: received ${signal}, stopping every child process`);
        this.stopAll({ graceMs: 3000 }).finally(() => process.exit(1));
      });
    }
  }
}
