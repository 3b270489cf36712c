/**
 * The shape every language's file must have, taken from the Portuguese one with its texts widened
 * to `string`: `typeof` alone would make `(b) => b ? 'Escolher fotos e vídeos' : 'Escolher fotos'`
 * return those two Portuguese literals only, and no other language could fit.
 */
export type TextsOf<T>
  = T extends (...args: infer A) => infer R ? (...args: A) => TextsOf<R>
    : T extends string ? string
      : T extends object ? { [K in keyof T]: TextsOf<T[K]> }
        : T
