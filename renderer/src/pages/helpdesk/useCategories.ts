import type { z } from 'zod';
import type { categorySchema } from '../../../../server/helpdesk/schemas';
import { api } from '../../api';
import { useAsync } from '../../ui/hooks';

export type Category = z.output<typeof categorySchema>;

export function useCategories() {
  return useAsync(() => api.get<Category[]>('/api/helpdesk/categories'));
}
