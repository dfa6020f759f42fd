/**
 * Names every skipped test at the end of a run, with the reason its title or `ctx.skip(note)`
 * gives — a suite that skipped on a machine must say so where the summary is read. Under
 * `TOKENPOOL_CI=1` (set by .ci/run, which installs and checks what the suites need) a skip for a
 * missing prerequisite — one whose title says "(skipped: …)", or a `ctx.skip` with a note — fails
 * the run: CI must not pass by leaving a suite out. A skip by design (a case that does not apply
 * to one store) says why in its title without "skipped:", and is only listed.
 */
import type { Reporter, TestModule, Vitest } from "vitest/node";

export default class SkipsReporter implements Reporter {
  /** A run filtered by name (-t) skips every other test: those are counted, not listed. */
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped: { name: string; missing: boolean }[] = [];
    for (const m of modules) {
      for (const test of m.children.allTests("skipped")) {
        const result = test.result();
        const note = result.state === "skipped" ? result.note : undefined;
        const name = `${m.moduleId.replace(`${process.cwd()}/`, "")} > ${test.fullName}${note ? ` (skipped: ${note})` : ""}`;
        skipped.push({ name, missing: note !== undefined || /\(skipped: /.test(test.fullName) });
      }
    }
    if (skipped.length === 0) {
      process.stdout.write(`\nskips: none${this.filtered ? "" : " — every test of the files run ran"}\n`);
      return;
    }
    const missing = skipped.filter((s) => s.missing);
    const listed = this.filtered ? missing : skipped;
    process.stdout.write(`\nskips: ${skipped.length} test(s) did not run${this.filtered ? " (a run filtered by name; those skipped for a missing prerequisite are listed)" : ""}:\n${listed.map((s) => `  - ${s.name}`).join("\n")}\n`);
    if (process.env.TOKENPOOL_CI === "1" && missing.length > 0) {
      process.stdout.write(`skips: ${missing.length} of them for a missing prerequisite, which CI must have: failing the run\n`);
      process.exitCode = 1;
    }
  }
}
