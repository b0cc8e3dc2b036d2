// The prefix of a business's ticket numbers (`ACME-1042`), the same on every device and on the
// hosted instance: derived from the entity's name unless an owner chose one. Pure.

/** 2–6 upper-case letters or digits, starting with a letter. */
export const TICKET_PREFIX = /^[A-Z][A-Z0-9]{1,5}$/;

/** Words that name a company's form, not the company: "Acme Ltd" is ACME, not AL. */
const LEGAL_FORMS = new Set(['LTD', 'LIMITED', 'INC', 'LLC', 'LLP', 'CORP', 'CO', 'COMPANY', 'GMBH', 'AG', 'SA', 'SARL', 'SAS', 'BV', 'NV', 'PLC', 'PTY', 'KG', 'OY', 'AB', 'AS', 'SRL', 'SPA', 'THE', 'AND', 'OF']);

/**
 * "Acme Ltd" → ACME, "Dana's Design Studio" → DDS, "北京" → TKT. One significant word gives its
 * first four letters, several their initials (at most six); a name without Latin letters, TKT.
 */
export function derivePrefix(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]s\b/gi, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const significant = words.filter((w) => !LEGAL_FORMS.has(w));
  const use = significant.length ? significant : words;
  let prefix = use.length === 1 ? use[0].slice(0, 4) : use.map((w) => w[0]).join('').slice(0, 6);
  if (prefix.length < 2 && use[0]) prefix = use[0].slice(0, 4);
  prefix = prefix.replace(/^[0-9]+/, '');
  return TICKET_PREFIX.test(prefix) ? prefix : 'TKT';
}

/** A final number (`ACME-1042`): its sequence, or null (a provisional or another form). */
export function sequenceOf(ticketNumber: string): number | null {
  const m = /^[A-Z][A-Z0-9]{1,5}-(\d{1,12})$/.exec(ticketNumber);
  return m ? Number(m[1]) : null;
}
