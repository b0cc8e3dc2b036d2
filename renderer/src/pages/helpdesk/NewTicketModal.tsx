import { useState } from 'react';
import { client, invalidateEntity, unwrap, type ApiBody } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextArea, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { CHANNELS, PRIORITIES, type Member, type Ticket } from './types';
import { TICKETS_KEY, useCategories } from './queries';

export function NewTicketModal({ members, onClose, onCreated }: { members: Member[]; onClose: () => void; onCreated: (t: Ticket) => void }) {
  const [form, setForm] = useState({ subject: '', description: '', priority: 'normal', channel: 'web', contactName: '', contactEmail: '', assignedTo: '', categoryId: '' });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const categories = useCategories();
  const create = useAction(async () => {
    const body: ApiBody<'/api/helpdesk/tickets'> = {
      subject: form.subject,
      priority: form.priority as Ticket['priority'],
      channel: form.channel as Ticket['channel'],
      ...(form.description.trim() ? { description: form.description } : {}),
      ...(form.contactName.trim() ? { contactName: form.contactName } : {}),
      ...(form.contactEmail.trim() ? { contactEmail: form.contactEmail } : {}),
      ...(form.assignedTo ? { assignedTo: form.assignedTo } : {}),
      ...(form.categoryId ? { categoryId: form.categoryId } : {}),
    };
    const ticket = await unwrap(client.POST('/api/helpdesk/tickets', { body }));
    await invalidateEntity(...TICKETS_KEY);
    onCreated(ticket);
  });
  return (
    <Modal
      title="New ticket"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="new-ticket" busy={create.pending}>
            Create ticket
          </Button>
        </>
      }
    >
      <form id="new-ticket" className="form" onSubmit={(e) => (e.preventDefault(), void create.run())}>
        <ErrorBanner error={create.error} />
        <TextInput label="Subject" value={form.subject} onChange={set('subject')} required maxLength={200} placeholder="What is the problem?" />
        <TextArea label="Description" value={form.description} onChange={set('description')} placeholder="Details, steps, error messages…" />
        <div className="grid-2">
          <SelectInput label="Priority" value={form.priority} onChange={set('priority')} options={PRIORITIES.map((p) => ({ value: p.value, label: p.label }))} />
          <SelectInput label="Channel" value={form.channel} onChange={set('channel')} options={CHANNELS} />
          <TextInput label="Contact name" value={form.contactName} onChange={set('contactName')} maxLength={120} />
          <TextInput label="Contact e-mail" type="email" value={form.contactEmail} onChange={set('contactEmail')} />
        </div>
        <div className="grid-2">
          <SelectInput label="Assignee" value={form.assignedTo} onChange={set('assignedTo')} options={[{ value: '', label: 'Unassigned' }, ...members.map((m) => ({ value: m.userId, label: m.name }))]} />
          <SelectInput label="Category" value={form.categoryId} onChange={set('categoryId')} options={[{ value: '', label: 'None' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]} />
        </div>
      </form>
    </Modal>
  );
}
