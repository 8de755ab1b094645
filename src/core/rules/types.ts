import type { ContainerKind, ContainerModel, ManifestDocument, PodSpecModel, ProbeModel } from '../manifest';
import type { Range } from '../text/range';

export type Severity = 'error' | 'warning' | 'info';

/**
 * The API server's `field.ErrorType` of a validation finding, or the decode stage's
 * `UnknownField` / `TypeMismatch` (validation-rules.md §A.2, §A.5).
 */
export type ApiErrorKind = 'Required' | 'Invalid' | 'Forbidden' | 'NotSupported' | 'UnknownField' | 'TypeMismatch';

export type RuleCategory = 'yaml' | 'api' | 'runtime' | 'timing';

export interface TextEdit {
  readonly range: Range;
  readonly newText: string;
}

/** A mechanical correction, offered as a quick fix in the editor. */
export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

/** What a rule reports; the runner adds the rule's id, severity, file and document. */
export interface Issue {
  readonly path: string;
  readonly range: Range;
  readonly message: string;
  readonly kind?: ApiErrorKind;
  /** Only where one rule covers cases of different gravity (L19). */
  readonly severity?: Severity;
  readonly fix?: Fix;
}

export interface Finding {
  readonly rule: string;
  readonly severity: Severity;
  readonly kind?: ApiErrorKind;
  readonly message: string;
  readonly file: string;
  /** 0-based index among the file's non-empty documents. */
  readonly doc: number;
  readonly path: string;
  readonly range: Range;
  readonly fix?: Fix;
}

export interface RuleContext {
  /** Minor version of Kubernetes 1.x being targeted. */
  readonly minorVersion: number;
  /** The app's expected start-up time, when the user told us (L10). */
  readonly expectedStartupSeconds?: number;
}

interface RuleMeta {
  readonly id: string;
  readonly severity: Severity;
  readonly category: RuleCategory;
  /** One line: what the rule finds. */
  readonly title: string;
  /** Where the behaviour is specified (`validation-rules.md §A.3 P12`). */
  readonly reference: string;
}

export interface ProbeRule extends RuleMeta {
  readonly scope: 'probe';
  check(probe: ProbeModel, context: RuleContext): readonly Issue[];
}

export interface ContainerRule extends RuleMeta {
  readonly scope: 'container';
  /** Container kinds the rule looks at; probes elsewhere are forbidden and not looked into (P14, P16). */
  readonly kinds: readonly ContainerKind[];
  check(container: ContainerModel, context: RuleContext): readonly Issue[];
}

export interface PodRule extends RuleMeta {
  readonly scope: 'pod';
  check(pod: PodSpecModel, context: RuleContext): readonly Issue[];
}

export interface DocumentRule extends RuleMeta {
  readonly scope: 'document';
  check(document: ManifestDocument, context: RuleContext): readonly Issue[];
}

export type Rule = ProbeRule | ContainerRule | PodRule | DocumentRule;

export { PROBING_CONTAINERS } from '../manifest';
