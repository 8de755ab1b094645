/** Everything that starts something returns one of these (docs/design.md §5). */
export interface Disposable {
  dispose(): void;
}

export const NO_OP: Disposable = { dispose() {} };
