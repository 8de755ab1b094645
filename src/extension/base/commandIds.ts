/**
 * Every command Probe Lens registers, in one table: package.json contributes exactly these (a
 * test holds the two together), and everything that names a command — a code lens, a quick fix,
 * a tree row, a link in a hover — names it from here, so a renamed id cannot leave a caller behind.
 * They are registered in `commands/`.
 */
export const COMMANDS = {
  startProbing: 'probeLens.startProbing',
  startProbingCluster: 'probeLens.startProbingCluster',
  stopProbing: 'probeLens.stopProbing',
  runProbeOnce: 'probeLens.runProbeOnce',
  simulate: 'probeLens.simulate',
  restartContainer: 'probeLens.restartContainer',
  openTimeline: 'probeLens.openTimeline',
  openTimelineFromFile: 'probeLens.openTimelineFromFile',
  exportTimeline: 'probeLens.exportTimeline',
  declarePort: 'probeLens.declarePort',
  showRuleDoc: 'probeLens.showRuleDoc',
  pauseSimulation: 'probeLens.pauseSimulation',
  resumeSimulation: 'probeLens.resumeSimulation',
  nextSimulationEvent: 'probeLens.nextSimulationEvent',
  setSimulationSpeed: 'probeLens.setSimulationSpeed',
  clearEndedSession: 'probeLens.clearEndedSession',
  addStartupProbe: 'probeLens.addStartupProbe',
  showOutput: 'probeLens.showOutput',
  forgetExecConsent: 'probeLens.forgetExecConsent',
  openWalkthroughExample: 'probeLens.walkthrough.openExample',
  simulateWalkthroughExample: 'probeLens.walkthrough.simulateExample',
  whatIf: 'probeLens.whatIf',
  openRendered: 'probeLens.rendered.open',
  simulateRendered: 'probeLens.rendered.simulate',
  startProbingRendered: 'probeLens.rendered.startProbing',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];
