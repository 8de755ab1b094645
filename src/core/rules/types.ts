import type { ContainerKind, ContainerModel, ManifestDocument, PodSpecModel, ProbeModel, ServiceModel } from '../manifest';
import type { TextEdit } from '../text/edits';
import type { Range } from '../text/range';

export type Severity = 'error' | 'warning' | 'info';

/**
 * The API server's `field.ErrorType` of a validation finding, or the decode stage's
 * `UnknownField` / `TypeMismatch` (docs/spec/validation-rules.md §A.2, §A.5).
 */
export type ApiErrorKind = 'Required' | 'Invalid' | 'Forbidden' | 'NotSupported' | 'UnknownField' | 'TypeMismatch';

export type RuleCategory = 'yaml' | 'api' | 'runtime' | 'timing';

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
  /** Only the rule's declared `alsoReports` severity, for the cases it names. */
  readonly severity?: Severity;
  /** Its corrections, the preferred one first (the one the editor's Auto Fix may apply). */
  readonly fixes?: readonly Fix[];
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
  /** The container the path is in, by name, when it has one: what messages for people name. */
  readonly container?: string;
  /** The object the finding is in (`Deployment` `cartservice`), when its document holds a pod: what tells two findings of one file apart in CI. */
  readonly object?: FindingObject;
  /** Its corrections, the preferred one first. */
  readonly fixes?: readonly Fix[];
  /**
   * For a finding on a rendered chart or overlay: where it is in the rendered output. `file` and
   * `range` then name the place the user fixes (a values key, a template line).
   */
  readonly rendered?: RenderedLocation;
}

export interface FindingObject {
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** Where a finding sits in a renderer's output, and how its source place was found. */
export interface RenderedLocation {
  /** 0-based index among the rendered non-empty documents. */
  readonly doc: number;
  /**
   * The file the document came from: the template helm names (`web/templates/deployment.yaml`),
   * or the resource kustomize's origin annotation names, relative to the overlay (`../../base/deployment.yaml`).
   */
  readonly source?: string;
  /** The field path in the rendered document, as `path` names it. */
  readonly path: string;
  readonly range: Range;
  /**
   * How `file`/`range` was found: proven by a sentinel render to be the values key, the template
   * text, an overlay's resource or the patch that writes the field (`values`, `template`,
   * `resource`, `patch`), or, when no place could be proven, the workload's line in its file
   * (`workload`, and the message quotes the render).
   */
  readonly placed: 'values' | 'template' | 'resource' | 'patch' | 'workload';
  /** The values key that sets the field, in helm's `--set` spelling, when `placed` is `values`. */
  readonly valuesKey?: string;
}

export interface RuleContext {
  /** Minor version of Kubernetes 1.x being targeted. */
  readonly minorVersion: number;
  /** The app's expected start-up time, when the user told us (L10). */
  readonly expectedStartupSeconds?: number;
  /**
   * The Services of the manifests checked together (the other files on the command line, the
   * editor's other open manifests); the runner adds the checked file's own. Only rules that look
   * across documents (`acrossDocuments`) see them.
   */
  readonly services?: readonly ServiceModel[];
  /**
   * What turns rendering on for a Helm template found here (Y03): `check its chart (probe-lens
   * check CHART_DIR)`, `install helm or pass --helm PATH`. Without it Y03 says to render it first.
   */
  readonly renderingHint?: string;
}

interface RuleMeta {
  readonly id: string;
  readonly severity: Severity;
  /** The one other severity the rule reports, and when: a rule covering cases of different gravity (L19, Y01). */
  readonly alsoReports?: { readonly severity: Severity; readonly when: string };
  readonly category: RuleCategory;
  /** One line: what the rule finds. */
  readonly title: string;
  /** Where the behaviour is specified (`docs/spec/validation-rules.md §A.3 P12`). */
  readonly reference: string;
  /**
   * Its findings depend on other documents (the Services selecting a Job's pods): run once all
   * documents are read, not with each document on its own.
   */
  readonly acrossDocuments?: boolean;
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
