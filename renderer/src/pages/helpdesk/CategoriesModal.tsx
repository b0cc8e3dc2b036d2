import { useState } from 'react';
import { client, invalidateEntity, unwrap } from '../../api';
import { Button, EmptyState, ErrorBanner, Modal, Spinner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { CATEGORIES_KEY, useCategories } from './queries';
import type { Category } from './types';

/** Create, rename and delete ticket categories. Names are unique per entity; a used category cannot be deleted. */
export function CategoriesModal({ onClose }: { onClose: () => void }) {
  const categories = useCategories();
  const [name, setName] = useState('');
  const add = useAction(async () => {
    await unwrap(client.POST('/api/helpdesk/categories', { body: { name } }));
    setName('');
    await invalidateEntity(...CATEGORIES_KEY);
  });
  const changed = () => invalidateEntity(...CATEGORIES_KEY);
  return (
    <Modal
      title="Categories"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">
        <form className="hd-category-row" onSubmit={(e) => (e.preventDefault(), void add.run())}>
          <TextInput label="New category" value={name} onChange={(e) => (setName(e.target.value), add.setError(null))} required maxLength={80} placeholder="Billing, Bugs, Onboarding…" />
          <Button type="submit" variant="primary" busy={add.pending} disabled={!name.trim()}>
            Add
          </Button>
        </form>
        <ErrorBanner error={add.error} />
        <ErrorBanner error={categories.error?.message} onRetry={() => void categories.refetch()} />
        {categories.isPending ? (
          <Spinner />
        ) : categories.data?.length === 0 ? (
          <EmptyState title="No categories yet" icon="🏷">
            Categories group tickets (billing, bugs…) so you can filter by them.
          </EmptyState>
        ) : (
          <ul className="hd-category-list" aria-label="Categories">
            {categories.data?.map((c) => <CategoryRow key={c.id} category={c} onChanged={() => void changed()} />)}
          </ul>
        )}
      </div>
    </Modal>
  );
}

function CategoryRow({ category, onChanged }: { category: Category; onChanged: () => void }) {
  const [name, setName] = useState(category.name);
  const rename = useAction(async () => {
    await unwrap(client.PATCH('/api/helpdesk/categories/{categoryId}', { params: { path: { categoryId: category.id } }, body: { name } }));
    onChanged();
  });
  const remove = useAction(async () => {
    await unwrap(client.DELETE('/api/helpdesk/categories/{categoryId}', { params: { path: { categoryId: category.id } } }));
    onChanged();
  });
  const error = rename.error ?? remove.error;
  const dirty = name.trim() !== category.name;
  return (
    <li data-category-id={category.id}>
      <form
        className="hd-category-row"
        onSubmit={(e) => {
          e.preventDefault();
          remove.setError(null);
          void rename.run();
        }}
      >
        <input className="input" aria-label={`Name of category ${category.name}`} aria-invalid={error ? true : undefined} aria-describedby={error ? `cat-error-${category.id}` : undefined} value={name} onChange={(e) => (setName(e.target.value), rename.setError(null))} required maxLength={80} />
        <Button type="submit" busy={rename.pending} disabled={!dirty || !name.trim()}>
          Rename
        </Button>
        <Button
          type="button"
          variant="danger"
          busy={remove.pending}
          onClick={() => {
            rename.setError(null);
            if (confirm(`Delete the category “${category.name}”?`)) void remove.run();
          }}
        >
          Delete
        </Button>
      </form>
      {error && (
        <div id={`cat-error-${category.id}`} className="field-error" role="alert">
          {error}
        </div>
      )}
    </li>
  );
}
