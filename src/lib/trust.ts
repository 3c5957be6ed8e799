/** Trust tiers (SPEC §5): who said it decides what may overwrite what. */
export const TRUST_LABELS = { user: 5, hardware: 4, system: 3, inferred: 2, external: 1 } as const;
export type TrustLabel = keyof typeof TRUST_LABELS;
