// The step runner of the Playwright scripts (uiTest.mjs, ruleDocsUi.mjs, marketplaceTest.mjs):
// sections of steps that build on each other, a screenshot of each failure, and the closing line
// CI reads (`N passed, N failed`).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class Steps {
  passed = 0;
  failed = 0;
  /** A step of this section failed: the rest of the section is skipped (and counted as failed). */
  skipRest = false;
  /** A step everything needs failed (the workbench loading): every later step is skipped too. */
  fatal = false;
  /** The current section is not among those `only` selects. */
  unselected = false;

  /**
   * `failures`: where failure screenshots go, named `fail-<prefix><step>.png`; `page()`: the page
   * to screenshot, once there is one; `only`: run only the sections whose name contains it.
   */
  constructor({ failures, prefix = '', page = () => undefined, only = undefined }) {
    this.failures = failures;
    this.prefix = prefix;
    this.page = page;
    this.only = only;
  }

  /** Each section starts afresh (Escape closes whatever a failed step left open), unless a fatal step failed. */
  section = async (name) => {
    console.log(name);
    this.unselected = this.only !== undefined && !name.toLowerCase().includes(this.only.toLowerCase());
    if (this.fatal) return;
    const page = this.page();
    if (this.skipRest && page) {
      for (let i = 0; i < 3; i++) await page.keyboard.press('Escape').catch(() => {});
    }
    this.skipRest = false;
  };

  step = async (name, body, { isFatal = false } = {}) => {
    if (this.unselected && !isFatal) {
      console.log(`  - ${name} (not selected)`);
      return;
    }
    if (this.skipRest) {
      this.failed++;
      console.log(`  - ${name} (skipped)`);
      return;
    }
    const stepStarted = Date.now();
    try {
      await body();
      this.passed++;
      console.log(`  ✔ ${name} (${Date.now() - stepStarted} ms)`);
    } catch (error) {
      this.failed++;
      this.skipRest = true;
      this.fatal ||= isFatal;
      console.log(`  ✘ ${name} (${Date.now() - stepStarted} ms)\n    ${error instanceof Error ? error.message.split('\n').slice(0, 8).join('\n    ') : error}`);
      await this.screenshotFailure(name);
    }
  };

  /** Something outside any step failed (the harness): counted, so that the run fails. */
  harnessFailed(label, error) {
    this.failed++;
    console.log(label, error instanceof Error ? error.message : error);
  }

  /** The closing line CI reads; exits 0 when every step passed, 1 otherwise. */
  finish(suffix = '') {
    console.log(`${this.passed} passed, ${this.failed} failed${suffix}`);
    process.exit(this.failed > 0 ? 1 : 0);
  }

  async screenshotFailure(name) {
    const page = this.page();
    if (!page) return;
    mkdirSync(this.failures, { recursive: true });
    const shot = join(this.failures, `fail-${this.prefix}${name.replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: shot }).then(() => console.log(`    screenshot: ${shot}`), () => {});
  }
}
