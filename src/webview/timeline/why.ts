/**
 * The *why* of the selection (issue 12 §1): a moment picked on a container's lane is asked of the
 * host (`explain`), which explains it from the recording with the core's insights; its answer
 * (`explanation`) fills the details area (`whyView.ts`). Only the newest question's answer is
 * shown. The CLI's page has no host to ask (`canExplain` unset): there, nothing is selected.
 */
import { momentText } from '../../core/timeline/clockText';
import type { ContainerLane } from '../../core/timeline/viewModel';
import type { HostMessage, TimelineClock } from '../../shared/protocol';
import { laneTitle } from './words/describe';
import { formatInstant } from './words/format';
import type { TimelineHost } from './host';
import type { Layout } from './model/layout';
import { explainMessage, type Selection } from './model/selection';
import type { WhyView } from './views/whyView';

export class WhyController {
  private selected: Selection | undefined;
  private request = 0;
  private allowed = false;

  constructor(
    private readonly host: TimelineHost,
    private readonly view: WhyView,
    private readonly clock: () => TimelineClock,
  ) {}

  get selection(): Selection | undefined {
    return this.selected;
  }

  /** Whether the source can be asked (a new source: nothing is selected). */
  get enabled(): boolean {
    return this.allowed;
  }

  sourceLoaded(canExplain: boolean): void {
    this.allowed = canExplain;
    this.clear();
  }

  /** Selects `t` on `lane` and asks why; `false` (nothing done) where there is no one to ask. */
  select(lane: ContainerLane, t: number): boolean {
    if (!this.allowed) return false;
    this.selected = { lane, t };
    this.request++;
    this.host.post(explainMessage(this.selected, this.request));
    this.view.pending(this.title(this.selected));
    return true;
  }

  receive(message: Extract<HostMessage, { type: 'explanation' }>): void {
    const selected = this.selected;
    if (!selected || message.request !== this.request) return;
    // The cited lines' times as the host wrote the sentence's, and as the axis says them.
    if (message.explanation) this.view.show(this.title(selected), message.explanation, momentText(this.clock()));
    else this.view.failed(this.title(selected), message.failure ?? 'the host gave no reason');
  }

  clear(): void {
    this.selected = undefined;
    this.request++;
    this.view.clear();
  }

  /** Rows were laid out again: the selected lane is found again by its id (a replay that went back rebuilt the lanes), or the selection goes. */
  rowsRebuilt(layout: Layout): void {
    const selected = this.selected;
    if (!selected) return;
    const lane = layout.byId.get(selected.lane.id)?.lane;
    if (lane === selected.lane) return;
    if (lane?.kind === 'container') this.selected = { lane, t: selected.t };
    else this.clear();
  }

  private title(selection: Selection): string {
    return `Why ${laneTitle(selection.lane)} at ${formatInstant(selection.t, this.clock())}`;
  }
}
