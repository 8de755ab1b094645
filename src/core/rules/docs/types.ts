/**
 * What a user reads about one rule: docs/rules.md (`probe-lens rules --format markdown`), the
 * editor's page for a rule, SARIF help. Texts are Markdown limited to paragraphs, `- ` lists,
 * `code` and **bold** (see `blocksOf` and `inlineSpans`), and name no document users do not have:
 * the specifications behind the rules stay in `RuleInfo.reference`.
 */
export interface RuleDoc {
  /** A few words for the heading: `Port name is not valid`. */
  readonly name: string;
  /** What the rule finds, in plain words. */
  readonly means: string;
  /** What the API server or the kubelet does with such a manifest. */
  readonly why: string;
  /** A manifest that triggers the rule. */
  readonly bad: RuleExample;
  /** The same manifest corrected: it does not trigger the rule. */
  readonly good: RuleExample;
  /**
   * The rule checks what the API server validates after its defaulting, and the defaulting makes
   * the `bad` manifest valid (P04): Probe Lens never reports it for YAML. The tests check that
   * claim, and check `bad` against the rule before defaulting.
   */
  readonly onlyWithoutDefaulting?: true;
}

export interface RuleExample {
  /** One sentence about what this example shows (inline Markdown). */
  readonly caption: string;
  /** A complete manifest, as a user would write it. */
  readonly yaml: string;
  /** The settings it is checked with, when the rule depends on them (shown with the example). */
  readonly settings?: ExampleSettings;
  /**
   * Other rules that this very manifest triggers too, because they describe the same mistake
   * from another side (a quoted port is both P06 and L04). The docs say so, and the tests allow
   * exactly these.
   */
  readonly alsoTriggers?: readonly string[];
}

/** The checker settings an example needs: the editor's setting and the CLI's flag are shown. */
export interface ExampleSettings {
  /** `probeLens.kubernetesVersion` / `--kubernetes-version` (otherwise 1.33). */
  readonly kubernetesVersion?: string;
  /** `probeLens.expectedStartupSeconds` / `--expected-startup`. */
  readonly expectedStartupSeconds?: number;
}
