/** The BN254 scalar field's order: every circuit value (and a shielded address's public key) is below it. */
export const FIELD_SIZE = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
