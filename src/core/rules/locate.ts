import type { ContainerModel, ProbeModel } from '../manifest';
import type { Range } from '../text/range';

/**
 * The range of a field inside a probe: its value token, else the nearest parent that was written
 * (a missing `port` points at `httpGet`), else the probe's key.
 */
export function probeRange(probe: ProbeModel, relative: string, part: 'value' | 'key' = 'value'): Range {
  for (let path = relative; ; path = parentPath(path)) {
    const location = probe.locate(path);
    if (location && path !== '') return (part === 'key' && location.key) || location.value;
    if (path === '') return probe.keyRange;
  }
}

export function containerRange(container: ContainerModel, relative: string, part: 'value' | 'key' = 'value'): Range {
  const location = container.locate(relative);
  if (!location) return container.range;
  return (part === 'key' && location.key) || location.value;
}

function parentPath(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return cut <= 0 ? '' : path.slice(0, cut);
}
