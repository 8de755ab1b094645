import type { Manifest, ProbeType } from '../../manifest';
import type { Finding, RenderedLocation } from '../../rules/types';
import type { Range } from '../../text/range';

/**
 * Where each probe of a rendered chart or overlay is written: the values map rendered as the
 * probe (`livenessProbe:` in values.yaml), or the probe's key in its template or resource. The
 * editor puts a probe's timing lens there. Found by the same proof as findings' places: each probe
 * is asked as a question shaped like a finding on the probe, so the probes and the findings of a
 * render share its proof render.
 */
export interface PlacedProbe {
  readonly type: ProbeType;
  readonly container: string;
  /** The file and range of the place (absolute path; the key's range). */
  readonly file: string;
  readonly range: Range;
  /** 0-based index among the rendered non-empty documents, and the probe's path there. */
  readonly doc: number;
  readonly path: string;
  readonly placed: Exclude<RenderedLocation['placed'], 'workload'>;
}

/** The rule id of a probe question: never a finding anyone sees (split off before they are returned). */
const PROBE_QUESTION = 'probe-place';

/** One finding-shaped question per probe in the rendered output: "where is this probe written?". */
export function probeQuestions(rendered: Manifest, renderedName: string): Finding[] {
  return rendered.documents.flatMap((document) =>
    document.podSpecs.flatMap((pod) =>
      pod.containers.flatMap((container) =>
        container.probes.map((probe) => ({
          rule: PROBE_QUESTION,
          severity: 'info' as const,
          message: probe.type,
          file: renderedName,
          doc: document.source.index,
          path: probe.path,
          range: probe.keyRange,
          container: container.name,
        })),
      ),
    ),
  );
}

/** The placed questions, as probes; those placed only at their workload's line are left out (never a wrong line). */
export function probePlacesOf(placed: readonly Finding[]): PlacedProbe[] {
  return placed.flatMap((question) => {
    const at = question.rendered;
    if (question.rule !== PROBE_QUESTION || !at || at.placed === 'workload') return [];
    return [{ type: question.message as ProbeType, container: question.container ?? '', file: question.file, range: question.range, doc: at.doc, path: at.path, placed: at.placed }];
  });
}

export function isProbeQuestion(finding: Finding): boolean {
  return finding.rule === PROBE_QUESTION;
}
