/**
 * The toolbar (zoom, fit, follow, replay, export), the filter chips and the legend: plain DOM,
 * coloured by classes from media/timeline.css (the same `--vscode-*` colours the canvas reads).
 */
import type { ProbeType } from '../../../core/manifest/model';
import { MARK_OUTCOMES, type MarkOutcome } from '../../../core/timeline/columns';
import { clusterLegend } from './clusterLegend';
import { button, type ButtonSpec, h, setButtonFace } from './dom';
import { ZOOM_STEP } from '../model/keyCommands';
import type { LegendGroup } from './legendGroup';
import { pauseLegend } from './pauseLegend';
import { REPLAY_SPEEDS } from '../model/replay';

export interface ControlEvents {
  zoom(factor: number): void;
  fitAll(): void;
  toggleFollow(): void;
  togglePlay(): void;
  setSpeed(speed: number): void;
  /** Replay position, 0–1 of the recording. */
  seek(fraction: number): void;
  exportEvents(): void;
  toggleContainer(name: string): void;
  toggleProbe(probe: ProbeType): void;
  toggleOutcome(outcome: MarkOutcome): void;
}

const PLAY: ButtonSpec = { label: 'Play the recording (Space)', text: 'Play', icon: 'play', className: 'tl-play' };
const PAUSE: ButtonSpec = { label: 'Pause (Space)', text: 'Pause', icon: 'debug-pause', className: 'tl-play' };
const OUTCOME_TITLES: Readonly<Record<MarkOutcome, string>> = { success: 'success', warning: 'warning', failure: 'failure', unknown: 'unknown', error: 'error (discarded)' };

export class Controls {
  readonly toolbar: HTMLDivElement;
  readonly filters: HTMLDivElement;
  readonly legend: HTMLDivElement;
  /** The legend's group for a cluster session's lines, not there for other sessions. */
  readonly clusterLegend: LegendGroup;
  /** The legend's group for a debugger's pauses, there once the model holds one. */
  readonly pauseLegend: LegendGroup;
  private readonly title: HTMLSpanElement;
  private readonly follow: HTMLButtonElement;
  private readonly replay: HTMLDivElement;
  private readonly play: HTMLButtonElement;
  private readonly speed: HTMLSelectElement;
  private readonly position: HTMLInputElement;
  private readonly positionText: HTMLSpanElement;
  private readonly exportButton: HTMLButtonElement;
  private readonly containerChips: HTMLDivElement;
  private readonly probeChips: HTMLDivElement;
  private readonly outcomeChips: HTMLDivElement;
  private containersShown = '';
  private probesShown = '';
  private playing = false;

  constructor(
    private readonly codicons: boolean,
    private readonly events: ControlEvents,
  ) {
    this.title = h('span', { className: 'tl-title', id: 'timeline-title' });
    this.follow = button({ label: 'Follow live (F)', text: 'Follow live', icon: 'pinned', showText: true, toggle: true, className: 'tl-follow' }, codicons, () => events.toggleFollow());
    this.follow.id = 'timeline-follow';
    this.play = button(PLAY, codicons, () => events.togglePlay());
    this.play.id = 'timeline-play';
    this.speed = h('select', { className: 'tl-select', id: 'timeline-speed', attrs: { title: 'Replay speed', 'aria-label': 'Replay speed' } }, REPLAY_SPEEDS.map((s) => h('option', { text: `${s}×`, attrs: { value: String(s) } })));
    this.speed.addEventListener('change', () => events.setSpeed(Number(this.speed.value)));
    this.position = h('input', { className: 'tl-position', id: 'timeline-position', attrs: { type: 'range', min: '0', max: '1000', step: '1', value: '1000', title: 'Replay position', 'aria-label': 'Replay position' } });
    this.position.addEventListener('input', () => events.seek(Number(this.position.value) / 1000));
    this.positionText = h('span', { className: 'tl-position-text', attrs: { 'aria-hidden': 'true' } });
    this.replay = h('div', { className: 'tl-group tl-replay', attrs: { role: 'group', 'aria-label': 'Replay' } }, [this.play, this.speed, this.position, this.positionText]);
    this.replay.hidden = true;
    this.exportButton = button({ label: 'Export the events as JSON Lines…', text: 'Export…', icon: 'export', showText: true }, codicons, () => events.exportEvents());
    this.exportButton.id = 'timeline-export';
    this.exportButton.hidden = true;
    const zoomOut = button({ label: 'Zoom out (-)', text: '−', icon: 'zoom-out' }, codicons, () => events.zoom(1 / ZOOM_STEP));
    zoomOut.id = 'timeline-zoom-out';
    const zoomIn = button({ label: 'Zoom in (+)', text: '+', icon: 'zoom-in' }, codicons, () => events.zoom(ZOOM_STEP));
    zoomIn.id = 'timeline-zoom-in';
    const fit = button({ label: 'Fit all (0)', text: 'Fit all', icon: 'screen-full', showText: true }, codicons, () => events.fitAll());
    fit.id = 'timeline-fit';
    const zoom = h('div', { className: 'tl-group', attrs: { role: 'group', 'aria-label': 'Zoom' } }, [zoomOut, zoomIn, fit, this.follow]);
    this.toolbar = h('div', { className: 'tl-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Timeline' } }, [this.title, h('span', { className: 'tl-spacer' }), zoom, this.replay, this.exportButton]);

    this.containerChips = h('div', { className: 'tl-chips', attrs: { role: 'group', 'aria-label': 'Containers' } });
    this.probeChips = h('div', { className: 'tl-chips', attrs: { role: 'group', 'aria-label': 'Probe types' } });
    this.outcomeChips = h(
      'div',
      { className: 'tl-chips', attrs: { role: 'group', 'aria-label': 'Outcomes' } },
      MARK_OUTCOMES.map((o) => this.chip(OUTCOME_TITLES[o], `outcome ${OUTCOME_TITLES[o]}`, () => events.toggleOutcome(o), `tl-swatch tl-mark-${o}`)),
    );
    this.filters = h('div', { className: 'tl-filters', id: 'timeline-filters' }, [
      h('span', { className: 'tl-filter-label', text: 'Containers' }),
      this.containerChips,
      h('span', { className: 'tl-filter-label', text: 'Probes' }),
      this.probeChips,
      h('span', { className: 'tl-filter-label', text: 'Outcomes' }),
      this.outcomeChips,
    ]);
    this.legend = buildLegend();
    this.clusterLegend = clusterLegend(this.legend);
    this.pauseLegend = pauseLegend(this.legend);
  }

  setSource(title: string, replayable: boolean, canExport: boolean): void {
    this.title.textContent = title;
    this.title.title = title;
    this.replay.hidden = !replayable;
    this.exportButton.hidden = !canExport;
  }

  setFollow(on: boolean, available: boolean): void {
    if (this.follow.getAttribute('aria-pressed') === String(on) && this.follow.disabled === !available) return;
    this.follow.setAttribute('aria-pressed', String(on));
    this.follow.classList.toggle('tl-on', on);
    this.follow.disabled = !available;
  }

  setReplay(playing: boolean, speed: number, fraction: number, text: string): void {
    if (playing !== this.playing) {
      this.playing = playing;
      setButtonFace(this.play, playing ? PAUSE : PLAY, this.codicons);
    }
    if (this.speed.value !== String(speed)) this.speed.value = String(speed);
    const value = String(Math.round(fraction * 1000));
    if (this.position.value !== value && document.activeElement !== this.position) this.position.value = value;
    if (this.positionText.textContent !== text) this.positionText.textContent = text;
  }

  /** The filter chips for the containers and probe types there are, pressed when shown. */
  setFilterChoices(containers: readonly string[], probes: readonly ProbeType[], hiddenContainers: ReadonlySet<string>, hiddenProbes: ReadonlySet<ProbeType>, hiddenOutcomes: ReadonlySet<MarkOutcome>): void {
    const containerKey = containers.join('\n');
    if (containerKey !== this.containersShown) {
      this.containersShown = containerKey;
      this.containerChips.replaceChildren(...containers.map((name) => this.chip(name, `container ${name}`, () => this.events.toggleContainer(name))));
    }
    const probeKey = probes.join('\n');
    if (probeKey !== this.probesShown) {
      this.probesShown = probeKey;
      this.probeChips.replaceChildren(...probes.map((probe) => this.chip(probe, `${probe} probes`, () => this.events.toggleProbe(probe))));
    }
    pressChips(this.containerChips, containers, (name) => !hiddenContainers.has(name));
    pressChips(this.probeChips, probes, (probe) => !hiddenProbes.has(probe));
    pressChips(this.outcomeChips, MARK_OUTCOMES, (o) => !hiddenOutcomes.has(o));
  }

  private chip(text: string, what: string, onClick: () => void, swatch?: string): HTMLButtonElement {
    const chip = h('button', { className: 'tl-chip', attrs: { type: 'button', 'aria-pressed': 'true', title: `Show ${what}`, 'aria-label': `Show ${what}` } });
    if (swatch) chip.append(h('span', { className: swatch, attrs: { 'aria-hidden': 'true' } }));
    chip.append(h('span', { text }));
    chip.addEventListener('click', onClick);
    return chip;
  }
}

function pressChips<T>(group: HTMLElement, values: readonly T[], shown: (value: T) => boolean): void {
  values.forEach((value, i) => {
    const chip = group.children[i];
    if (chip) chip.setAttribute('aria-pressed', String(shown(value)));
  });
}

/** Every mark, band and marker style the canvas draws, with what it means. */
function buildLegend(): HTMLDivElement {
  const item = (swatch: string, text: string) => h('span', { className: 'tl-legend-item' }, [h('span', { className: `tl-swatch ${swatch}`, attrs: { 'aria-hidden': 'true' } }), h('span', { text })]);
  const group = (title: string, items: HTMLElement[]) => h('span', { className: 'tl-legend-group' }, [h('span', { className: 'tl-legend-title', text: title }), ...items]);
  return h('div', { className: 'tl-legend', id: 'timeline-legend', attrs: { role: 'note', 'aria-label': 'Legend' } }, [
    group('Attempts', [
      item('tl-mark-success', 'success'),
      item('tl-mark-warning', 'warning'),
      item('tl-mark-unknown', 'unknown'),
      item('tl-mark-failure', 'failure (2/3: failures in a row of failureThreshold)'),
      item('tl-mark-error', 'prober error, discarded'),
    ]),
    group('Result', [item('tl-band tl-result-success', 'Success'), item('tl-band tl-result-failure', 'Failure'), item('tl-band tl-result-unknown', 'Unknown')]),
    group('Events', [item('tl-marker-unhealthy', 'Unhealthy'), item('tl-marker-warning', 'ProbeWarning'), item('tl-marker-kill', 'Killing'), item('tl-marker-backoff', 'BackOff'), item('tl-restart', 'restart (restartCount, container id)'), item('tl-now', 'now / replay position')]),
    group('Container', [item('tl-band tl-state-running', 'running'), item('tl-band tl-state-waiting', 'waiting'), item('tl-band tl-state-backoff', 'CrashLoopBackOff'), item('tl-band tl-state-terminated', 'terminated'), item('tl-band tl-ready-strip', 'ready')]),
    group('Pod', [item('tl-band tl-pod-ready', 'Ready'), item('tl-band tl-pod-not-ready', 'not ready'), item('tl-band tl-tunnel', 'tunnel down'), item('tl-band tl-dropped', 'incomplete (events dropped)')]),
  ]);
}
