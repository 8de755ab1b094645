/** What the details area's *why* shows now (`whyView.ts`). */
export interface WhyState {
  readonly shown: boolean;
  /** Asked, not yet answered. */
  readonly pending: boolean;
  readonly title: string;
  readonly sentence: string;
  /** Each cause's text and its cited lines as their buttons say them. */
  readonly causes: readonly { readonly text: string; readonly evidence: readonly string[] }[];
}
