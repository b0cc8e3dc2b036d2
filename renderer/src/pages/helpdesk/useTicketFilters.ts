import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PRIORITIES, STATUSES, type TicketPriority, type TicketStatus } from './types';

export type StatusFilter = TicketStatus | 'all';

const isStatus = (v: string | null): v is TicketStatus => STATUSES.some((s) => s.value === v);
const isPriority = (v: string | null): v is TicketPriority => PRIORITIES.some((p) => p.value === v);

/** A text filter typed into a box and kept in the URL a moment after typing stops. */
export function useTypedParam(value: string, commit: (v: string) => void) {
  const [typed, setTyped] = useState(value);
  const commitRef = useRef(commit);
  commitRef.current = commit;
  // The URL changed on its own (back, forward, a link): show what it says.
  useEffect(() => {
    setTyped((t) => (t.trim() === value ? t : value));
  }, [value]);
  useEffect(() => {
    if (typed.trim() === value) return;
    const t = setTimeout(() => commitRef.current(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed, value]);
  return [typed, setTyped] as const;
}

/** The ticket list's tab and filters, kept in the URL (`?status=&priority=&q=&contact=&category=&mine=1`). */
export function useTicketFilters() {
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const priorityParam = params.get('priority');
  const status: StatusFilter = isStatus(statusParam) ? statusParam : 'all';
  const priority: TicketPriority | '' = isPriority(priorityParam) ? priorityParam : '';
  const search = params.get('q') ?? '';
  const contact = params.get('contact') ?? '';
  const categoryId = params.get('category') ?? '';
  const mine = params.get('mine') === '1';
  /** Changes filters; typing replaces the history entry, choosing a tab or option adds one. */
  const setFilter = (changes: Record<string, string | null>, replace = false) =>
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        for (const [k, v] of Object.entries(changes)) if (v) next.set(k, v);
        else next.delete(k);
        return next;
      },
      { replace },
    );
  const filtered = status !== 'all' || !!priority || !!search || !!contact || !!categoryId || mine;
  return { status, priority, search, contact, categoryId, mine, filtered, setFilter };
}

export type TicketFilterState = ReturnType<typeof useTicketFilters>;
