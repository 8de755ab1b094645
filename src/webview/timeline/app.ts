/**
 * The timeline panel in the browser, put together. The host's messages change the session
 * (`session.ts`); the rows (`laneRows.ts`) and the view (`viewControls.ts`) follow; everything is
 * drawn on request, once an animation frame (`frames.ts`, `render/`). Pointer and keys
 * (`interaction.ts`), the lane list (`laneList.ts`) and the controls (`controls.ts`) change the
 * view; what the user set is saved (`viewState.ts`). Shared by the VS Code panel and the CLI's
 * HTML page: only the `TimelineHost` differs.
 */
import type { Lane, ProbeLane } from '../../core/timeline/viewModel';
import { type HostMessage, TIMELINE_PROTOCOL_VERSION, type TimelineEvidence } from '../../shared/protocol';
import { AxisLabels } from './views/axis';
import { Controls } from './views/controls';
import { type DescribeContext, laneDetail, laneSummary } from './words/describe';
import { hasCodicons } from './views/dom';
import { FrameScheduler } from './frames';
import { axisTicks, formatElapsed, formatPoint } from './words/format';
import { type Hit, hitTest } from './model/hitTest';
import type { TimelineHost } from './host';
import { Inspector } from './views/inspector';
import { bindCanvasInput, bindShortcuts, type InteractionTarget } from './interaction';
import type { ViewCommand } from './model/keyCommands';
import { LaneFilters } from './model/laneFilters';
import { LaneList } from './views/laneList';
import { LaneRows } from './model/laneRows';
import { containerNames, type Layout, probeTypes, type Row } from './model/layout';
import { liveFrameDelay } from './model/liveClock';
import { isStepKey, itemTime, stepItem } from './model/markCursor';
import { NotesView } from './views/notesView';
import { buildPanelDom, type PanelDom } from './views/panelDom';
import { Renderer } from './render/renderer';
import { ReplayController } from './model/replay';
import { revealMessage } from './model/reveal';
import { SectionHeadings } from './views/sectionHeadings';
import { evidenceHit, momentOf } from './model/selection';
import { type LoadMessage, TimelineSession } from './model/session';
import { SpokenLabels } from './views/spokenLabels';
import type { TimelineTestHooks } from './testHooks';
import { timelineTestHooks } from './testHooksAdapter';
import { type Palette, readPalette, watchTheme } from './render/theme';
import { TooltipView } from './views/tooltip';
import { ViewControls } from './model/viewControls';
import { snapshotViewState, ViewStatePersistence } from './model/viewState';
import { Viewport } from './model/viewport';
import { WhyController } from './why';
import { WhyView } from './views/whyView';

export class TimelineApp {
  private readonly session = new TimelineSession();
  private readonly viewport = new Viewport();
  private readonly filters = new LaneFilters();
  private readonly replay = new ReplayController();
  private readonly view = new ViewControls(this.session, this.viewport, this.replay, () => this.changed());
  private readonly rows = new LaneRows(this.filters, (layout) => this.rowsRebuilt(layout));
  private readonly persistence: ViewStatePersistence;
  private readonly frames = new FrameScheduler(() => this.frame());
  private palette: Palette;
  private painted = 0;
  private loaded = false;

  private readonly dom: PanelDom;
  private readonly controls: Controls;
  private readonly notes = new NotesView();
  private readonly axis = new AxisLabels();
  private readonly tooltip = new TooltipView();
  private readonly renderer: Renderer;
  private readonly lanes: LaneList;
  private readonly inspector: Inspector;
  private readonly spoken: SpokenLabels;
  private readonly headings = new SectionHeadings();
  private readonly whyView: WhyView;
  /** The moment selected on a container's lane, and its *why*. */
  private readonly why: WhyController;

  constructor(private readonly host: TimelineHost) {
    this.persistence = new ViewStatePersistence(host);
    const saved = this.persistence.saved;
    if (saved) {
      this.filters.restore(saved);
      this.replay.restoreSpeed(saved.replaySpeed);
    }
    this.controls = new Controls(hasCodicons(), {
      zoom: (factor) => this.view.zoomStep(factor),
      fitAll: () => this.view.fitAll(),
      toggleFollow: () => this.view.toggleFollow(),
      togglePlay: () => this.view.togglePlay(),
      setSpeed: (speed) => this.view.setSpeed(speed),
      seek: (fraction) => {
        this.view.seek(fraction);
        this.frames.request();
      },
      exportEvents: () => this.host.post({ type: 'export', protocol: TIMELINE_PROTOCOL_VERSION }),
      toggleContainer: (name) => this.toggleLanes(() => this.filters.toggleContainer(name)),
      toggleProbe: (probe) => this.toggleLanes(() => this.filters.toggleProbe(probe)),
      toggleOutcome: (outcome) => {
        this.filters.toggleOutcome(outcome);
        this.refreshChips();
        this.changed();
      },
    });
    this.whyView = new WhyView(hasCodicons(), { evidence: (e) => this.showEvidence(e), close: () => this.clearSelection() });
    this.why = new WhyController(host, this.whyView, () => this.session.clock);
    this.dom = buildPanelDom({
      toolbar: this.controls.toolbar,
      filters: this.controls.filters,
      notes: this.notes.element,
      axis: this.axis.element,
      legend: this.controls.legend,
      tooltip: this.tooltip.element,
      why: this.whyView.element,
      headings: this.headings.element,
    });
    const { canvas, scroller } = this.dom;
    this.renderer = new Renderer(canvas);
    this.lanes = new LaneList({ click: (row) => this.reveal(row.lane), activate: (row) => this.laneActivated(row), key: (event) => this.onLaneKey(event) }, { summary: laneSummary, detail: laneDetail }, scroller);
    this.inspector = new Inspector({ tooltip: this.tooltip, announcer: this.dom.announcer, canvas, describeContext: () => this.describeContext(), boxOf: (hit) => this.renderer.boxOf(hit) });
    this.spoken = new SpokenLabels(canvas, this.lanes);
    this.dom.mount(this.lanes.element);
    this.palette = readPalette(document.body);
    this.listen();
    this.notes.update(this.session);
    this.frames.request();
  }

  /** Starts taking the host's messages (VS Code: after `ready`; the page: its inlined data, at once). */
  start(): void {
    this.host.start((message) => this.receive(message));
  }

  receive(message: HostMessage): void {
    this.notes.invalidate();
    const endedBefore = this.session.ended;
    switch (message.type) {
      case 'load':
        this.load(message);
        break;
      case 'append':
        this.session.append(message, performance.now());
        break;
      case 'ended':
        this.session.end(message.now, message.reason);
        break;
      case 'highlight':
        this.rows.highlight(message.lanes);
        this.rows.update(this.session.feed);
        this.scrollToHighlight();
        break;
      case 'failed':
        this.session.fail(message.message);
        break;
      case 'explanation':
        this.why.receive(message);
        break;
    }
    // Ended by an `ended`, or with the last slice of a source that had already stopped.
    if (this.session.ended !== undefined && this.session.ended !== endedBefore) this.view.sessionEnded();
    this.frames.request();
  }

  private load(message: LoadMessage): void {
    const wasLive = this.session.isLive;
    const saved = this.persistence.saved;
    this.session.load(message, performance.now());
    // A reloaded panel finds its events again where the saved state says.
    if (!this.loaded) this.session.restore ??= saved?.restore;
    this.rows.invalidate();
    this.inspector.reset();
    const { source } = message;
    this.controls.setSource(this.session.title, source.replayable, source.canExport);
    this.why.sourceLoaded(source.canExplain === true);
    this.dom.axisCorner.textContent = source.clock.kind === 'wall' ? 'local time' : 'elapsed';
    this.view.sourceLoaded(!this.loaded, wasLive, saved);
    this.loaded = true;
  }

  /** Something the user set changed: redraw, and save it once changes pause. */
  private changed(): void {
    this.frames.request();
    this.persistence.schedule(() => snapshotViewState(this.viewport, this.filters, this.replay.speed, this.session.restore));
  }

  // ─── Rows ──────────────────────────────────────────────────────────────────

  /** New rows: the plot's height, the lane list, the chips and what is focused follow. */
  private rowsRebuilt(layout: Layout): void {
    this.dom.plot.style.height = `${layout.height}px`;
    this.lanes.setRows(layout);
    this.spoken.lanesFilled(this.session.feed.version);
    this.refreshChips();
    this.refreshClusterLegend();
    this.headings.update(layout);
    this.inspector.rowsRebuilt(layout);
    this.why.rowsRebuilt(layout);
  }

  /** The legend's cluster and debugger groups, while the model holds such lines (rows are laid out again when the first comes). */
  private refreshClusterLegend(): void {
    this.controls.clusterLegend.update(this.session.feed.hasCluster, this.palette);
    this.controls.pauseLegend.update(this.session.feed.hasPauses, this.palette);
  }

  private refreshChips(): void {
    const model = this.session.feed.model;
    const f = this.filters;
    // `lanes()` is a generator: one walk each.
    this.controls.setFilterChoices(containerNames(model.lanes()), probeTypes(model.lanes()), f.hiddenContainers, f.hiddenProbes, f.hiddenOutcomes);
  }

  /** A container or probe-type chip: lanes come or go at once (the chip's pressed state with them). */
  private toggleLanes(toggle: () => void): void {
    toggle();
    this.rows.invalidate();
    this.rows.update(this.session.feed);
    this.changed();
  }

  /** The first highlighted lane, scrolled to a third of the way down if it is out of view. */
  private scrollToHighlight(): void {
    const row = this.rows.firstHighlighted();
    if (!row) return;
    const { scroller } = this.dom;
    const top = scroller.scrollTop;
    const height = scroller.clientHeight;
    if (row.y < top || row.y + row.height > top + height) scroller.scrollTop = Math.max(0, row.y - height / 3);
  }

  // ─── Drawing ───────────────────────────────────────────────────────────────

  private frame(): void {
    this.replay.step(this.session.feed, performance.now());
    this.paint();
    this.scheduleMotion();
  }

  /** Lays out if needed, moves the view (follow, auto-fit), draws the canvas and the axis, refreshes notes, controls and spoken labels. */
  private paint(): void {
    const session = this.session;
    const layout = this.rows.update(session.feed);
    this.resize();
    const at = performance.now();
    const now = session.now(at);
    const v = this.viewport;
    v.update(session.extent(), now);
    const ticks = axisTicks(v.start, v.end, v.width, session.clock);
    this.renderer.draw({
      layout,
      viewport: v,
      scrollTop: this.dom.scroller.scrollTop,
      now,
      liveEdge: session.isLive ? now : undefined,
      playhead: session.feed.playhead,
      ticks,
      hiddenOutcomes: this.filters.hiddenOutcomes,
      palette: this.palette,
      hover: this.inspector.hover,
      focus: this.inspector.focus,
      selection: this.why.selection,
    });
    this.axis.update(ticks, v);
    this.painted++;
    this.notes.update(session);
    this.updateControls();
    this.spoken.updateCanvas(at, () => this.canvasLabel(now));
    this.spoken.updateLanes(at, session.feed.version);
    this.inspector.followFocus();
  }

  private resize(): void {
    const { scroller } = this.dom;
    const width = Math.max(1, scroller.clientWidth - this.lanes.element.offsetWidth);
    const height = Math.max(1, scroller.clientHeight);
    this.renderer.resize(width, height, window.devicePixelRatio || 1);
    this.viewport.setWidth(this.renderer.width);
    this.axis.setWidth(this.renderer.width);
  }

  /** While `now` moves, the next frame: every frame while replaying; while live, once `now` has moved about a pixel, if it is in view (or followed). */
  private scheduleMotion(): void {
    if (this.replay.playing) return this.frames.request();
    const { session, viewport: v } = this;
    if (!session.source || !session.clockRunningAt(performance.now())) return;
    const edge = session.shownNow;
    if (!v.follow && (edge < v.start || edge > v.end)) return;
    this.frames.requestAfter(liveFrameDelay(session.source.rate, v.pxPerSecond));
  }

  private updateControls(): void {
    const { session, replay } = this;
    this.controls.setFollow(this.viewport.follow, session.isLive || session.replaying);
    if (!session.replayable) return;
    const end = session.feed.end;
    const at = session.feed.playhead ?? end;
    const clock = session.clock;
    const say = (t: number) => (clock.kind === 'wall' ? formatPoint(t, clock) : formatElapsed(t));
    this.controls.setReplay(replay.playing, replay.speed, end > 0 ? at / end : 1, `${say(at)} / ${say(end)}`);
  }

  private canvasLabel(now: number): string {
    const { clock, isLive } = this.session;
    const v = this.viewport;
    const feed = this.session.feed;
    const runs = feed.sections.length > 1 ? ` ${feed.sections.length} runs one above the other on one time axis: ${feed.sections.map((s) => s.title).join(', then ')}.` : '';
    const cluster = feed.hasCluster ? " Under a pod's and a container's own bands, the cluster's kubelet's Ready and the cluster's events." : '';
    const pauses = feed.hasPauses ? " A debugger's pauses are striped on a pod's lane; the attempts they failed are hatched, the pause's failures and not the app's." : '';
    const why = this.why.enabled ? " A click on a container's lane, or a step through its items in the lane list, says why it is in its state then." : '';
    return `Timeline of ${this.rows.layout.rows.length} lanes, ${formatPoint(v.start, clock)} to ${formatPoint(v.end, clock)}${isLive ? `, live at ${formatPoint(now, clock)}` : ''}. Arrow keys pan, plus and minus zoom, 0 fits all, F follows live.${runs}${cluster}${pauses}${why} The lane list beside it reads each lane and its marks.`;
  }

  // ─── Input ─────────────────────────────────────────────────────────────────

  private listen(): void {
    const { canvas, scroller } = this.dom;
    const viewport = this.viewport;
    const target: InteractionTarget = {
      get width() {
        return viewport.width;
      },
      panBy: (dx) => this.view.panBy(dx),
      zoomAt: (x, factor) => this.view.zoomAt(x, factor),
      pointAt: (x, y) => this.pointAt(x, y),
      dragging: () => {
        if (this.inspector.setHover(undefined)) this.frames.request();
      },
      pointerLeft: (dragging) => {
        if (this.inspector.pointerLeft(dragging)) this.frames.request();
      },
      clickAt: (x, y) => this.clickAt(x, y),
      blurred: () => this.inspector.blurred(),
      run: (command) => this.run(command),
    };
    bindCanvasInput(canvas, target);
    bindShortcuts(target);
    scroller.addEventListener('scroll', () => {
      this.inspector.scrolled();
      this.lanes.showRowsInView();
      this.frames.request();
    });
    new ResizeObserver(() => {
      this.lanes.showRowsInView();
      this.frames.request();
    }).observe(scroller);
    watchTheme(() => {
      this.palette = readPalette(document.body);
      this.axis.themeChanged();
      this.refreshClusterLegend();
      this.frames.request();
    });
  }

  /** A key's command; `false` when it does not apply here (the key goes on to VS Code). */
  private run(command: ViewCommand): boolean {
    switch (command.kind) {
      case 'pan':
        this.view.panBy(this.viewport.width * command.widths);
        return true;
      case 'scroll':
        this.dom.scroller.scrollTop += command.px;
        this.changed();
        return true;
      case 'zoom':
        this.view.zoomStep(command.factor);
        return true;
      case 'fitAll':
        this.view.fitAll();
        return true;
      case 'toggleFollow':
        this.view.toggleFollow();
        return true;
      case 'togglePlay':
        if (!this.session.replayable) return false;
        this.view.togglePlay();
        return true;
      case 'dismiss':
        this.inspector.hideTooltip();
        if (!this.why.selection) return false;
        this.clearSelection();
        return true;
    }
  }

  private hitAt(clientX: number, clientY: number): Hit | undefined {
    const rect = this.dom.canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    if (x < 0 || y < 0 || x > rect.width || y > rect.height) return undefined;
    return hitTest(this.rows.layout, this.viewport, x, y + this.dom.scroller.scrollTop, { hiddenOutcomes: this.filters.hiddenOutcomes, now: this.session.now(performance.now()) });
  }

  /**
   * A click on a container's lane selects that moment (its *why* shows), where the host can say
   * why; anywhere else — and on the CLI's page — it shows the lane in the manifest.
   */
  private clickAt(clientX: number, clientY: number): void {
    const hit = this.hitAt(clientX, clientY);
    if (!hit) return;
    if (hit.lane.kind === 'container' && this.why.enabled) {
      const now = this.session.now(performance.now());
      const x = clientX - this.dom.canvas.getBoundingClientRect().left;
      // On an instant (a restart, an event) the moment is its own; on a stretch, where the click is.
      const instant = 'span' in hit || hit.kind === 'lane' || hit.kind === 'dropped' ? undefined : momentOf(hit, now);
      const t = instant ?? Math.max(0, Math.min(now, this.viewport.toT(x)));
      this.why.select(hit.lane, t);
      this.frames.request();
      return;
    }
    this.reveal(hit.lane);
  }

  private clearSelection(): void {
    // The keyboard was in the details area, which goes: it goes back to the lanes.
    if (this.whyView.element.contains(document.activeElement)) this.lanes.element.focus();
    this.why.clear();
    this.frames.request();
  }

  /** A cited line's button: the view moves to it, the keyboard's focus goes on it (outlined, its tooltip shown). */
  private showEvidence(evidence: TimelineEvidence): void {
    this.view.reveal(evidence.t);
    const hit = evidenceHit(this.rows.layout, evidence, this.session.now(performance.now()));
    if (hit) {
      this.lanes.setActive(hit.row.index, false);
      if (hit.kind !== 'lane') this.inspector.focusOn(hit);
    }
    this.paint();
    this.inspector.showFocus();
    this.changed();
  }

  private pointAt(clientX: number, clientY: number): void {
    const hit = this.hitAt(clientX, clientY);
    if (this.inspector.pointAt(hit, clientX, clientY)) this.frames.request();
    this.dom.canvas.classList.toggle('tl-clickable', hit !== undefined && this.session.source?.canReveal === true);
  }

  private reveal(lane: Lane): void {
    if (!this.session.source?.canReveal) return;
    const message = revealMessage(lane);
    if (message) this.host.post(message);
  }

  private describeContext(): DescribeContext {
    const model = this.session.feed.model;
    return {
      events: model.events,
      clock: this.session.clock,
      now: this.session.now(performance.now()),
      containerOf: (lane: ProbeLane) => model.containerOf(lane),
      capacity: this.session.source?.capacity ?? 0,
    };
  }

  // ─── The lane list's keyboard path through marks ───────────────────────────

  private laneActivated(row: Row | undefined): void {
    if (!row) return;
    this.inspector.laneActivated(row);
    this.frames.request();
  }

  /** Left/Right/Home/End step through the active lane's items, Enter reveals, Escape leaves the item. */
  private onLaneKey(event: KeyboardEvent): void {
    const row = this.lanes.active;
    if (!row) return;
    if (isStepKey(event.key)) {
      event.preventDefault();
      const hit = stepItem(row, event.key, this.inspector.focus, this.viewport, this.filters.hiddenOutcomes);
      if (!hit) return;
      this.inspector.focusOn(hit);
      // On a container's lane the keyboard's item is the moment selected: its *why* follows.
      const moment = momentOf(hit, this.session.now(performance.now()));
      if (hit.lane.kind === 'container' && moment !== undefined) this.why.select(hit.lane, moment);
      this.view.reveal(itemTime(hit));
      // Drawn at once: the tooltip goes under the item where it is drawn now.
      this.paint();
      this.inspector.showFocus();
      this.changed();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.reveal(this.inspector.focus?.lane ?? row.lane);
    } else if (event.key === 'Escape') {
      this.inspector.clearFocus();
      this.why.clear();
      this.frames.request();
    }
  }

  // ─── Test hooks ────────────────────────────────────────────────────────────

  /** The test hooks (`testHooks.ts`), plus `zoomTo(start, end)`. */
  hooks(): TimelineTestHooks & { zoomTo(start: number, end: number): void } {
    const { session, viewport, replay, rows, renderer, tooltip, notes, headings } = this;
    return timelineTestHooks({
      session,
      viewport,
      replay,
      rows,
      renderer,
      tooltip,
      notes,
      headings,
      why: () => ({ ...this.whyView.state, ...(this.why.selection ? { selection: { lane: this.why.selection.lane.id, t: this.why.selection.t } } : {}) }),
      canvas: this.dom.canvas,
      scroller: this.dom.scroller,
      palette: () => this.palette,
      painted: () => this.painted,
      showRange: (start, end) => {
        this.view.showRange(start, end);
        this.paint();
      },
      paint: () => this.paint(),
    });
  }
}
