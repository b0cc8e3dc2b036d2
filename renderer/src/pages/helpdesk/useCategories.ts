import { api } from '../../api';
import { useAsync } from '../../ui/hooks';

export interface Category {
  id: string;
  name: string;
  description: string | null;
}

export function useCategories() {
  return useAsync(() => api.get<Category[]>('/api/helpdesk/categories'));
}
