// One PASS/FAIL/SKIP line per check, figures and notes; keeps every printed line so a step can
// prove that a secret never reached its own output.

export class Reporter {
  /** @param {string} step the prefix of every line, e.g. "n8n-server" */
  constructor(step) {
    this.step = step;
    this.failures = 0;
    this.passes = 0;
    this.skips = 0;
    /** Every line this reporter printed. */
    this.printed = [];
    this.started = Date.now();
  }

  #print(line) {
    this.printed.push(line);
    console.log(line);
  }

  /** PASS or FAIL; `detail` is printed only on failure. Returns `ok`. */
  check(name, ok, detail = '') {
    const pass = Boolean(ok);
    if (pass) this.passes++;
    else this.failures++;
    this.#print(`${pass ? 'PASS' : 'FAIL'} ${this.step}: ${name}${!pass && detail ? ` (${detail})` : ''}`);
    return pass;
  }

  /** A check that could not run (say why). */
  skip(name, why) {
    this.skips++;
    this.#print(`SKIP ${this.step}: ${name} (${why})`);
  }

  /** A measured figure, printed, not asserted. */
  figure(name, value) {
    this.#print(`FIGURE ${this.step}: ${name}: ${value}`);
  }

  /** A note (what n8n did, progress). */
  info(text) {
    this.#print(`INFO ${this.step}: ${text}`);
  }

  /** Runs a scenario; an exception becomes one FAIL line instead of ending the step. */
  async scenario(name, fn) {
    const started = Date.now();
    try {
      await fn();
    } catch (error) {
      this.check(`${name}: ran to the end`, false, error?.stack ?? String(error));
    } finally {
      this.info(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }

  /** The last line; sets the exit code. */
  summary() {
    const took = `${((Date.now() - this.started) / 1000).toFixed(1)} s`;
    const counts = `${this.passes} passed, ${this.failures} failed, ${this.skips} skipped, ${took}`;
    this.#print(this.failures === 0 ? `PASS ${this.step}: all checks (${counts})` : `FAIL ${this.step}: ${counts}`);
    process.exitCode = this.failures === 0 ? 0 : 1;
  }
}
