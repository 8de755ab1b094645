/**
 * What a click on a lane (or a mark on it) asks the host to show in the manifest: the probe, or
 * the container, or a pod's first container. Pure: node tests import it.
 */
import type { ProbeType } from '../../../core/manifest/model';
import type { Lane } from '../../../core/timeline/viewModel';
import { TIMELINE_PROTOCOL_VERSION, type WebviewMessage } from '../../../shared/protocol';

export function revealMessage(lane: Lane): WebviewMessage | undefined {
  let pod: string;
  let container: string | undefined;
  let probe: ProbeType | undefined;
  if (lane.kind === 'probe') ({ pod, container, probe } = lane);
  else if (lane.kind === 'container') ({ pod, name: container } = lane);
  else {
    pod = lane.name;
    container = lane.containers[0]?.name;
  }
  if (container === undefined) return undefined;
  return { type: 'reveal', protocol: TIMELINE_PROTOCOL_VERSION, pod, container, ...(probe ? { probe } : {}) };
}
