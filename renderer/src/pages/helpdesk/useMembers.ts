import { api, getCurrentEntity } from '../../api';
import { useAsync } from '../../ui/hooks';
import type { Member } from './types';

/** The entity's members, for the assignee picker and names in the list. */
export function useMembers() {
  return useAsync(async () => {
    const entity = getCurrentEntity();
    if (!entity) return [] as Member[];
    try {
      return await api.get<Member[]>(`/api/entities/${entity}/members`);
    } catch {
      return [] as Member[]; // a role without MEMBERS.VIEW simply sees ids
    }
  });
}
