import { useState } from 'react';
import { client, unwrap, type ApiBody } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextArea, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { folderOptions } from './folder-options';
import { FOLDER_ICONS, type Folder } from './types';

/** Creates a folder (at the top level unless a parent is chosen), or edits one when `folder` is given. */
export function FolderModal({ folder, folders, onClose, onSaved }: { folder?: Folder; folders: Folder[]; onClose: () => void; onSaved: (f: Folder) => void }) {
  const [name, setName] = useState(folder?.name ?? '');
  const [description, setDescription] = useState(folder?.description ?? '');
  const [color, setColor] = useState(folder?.color ?? '#2563eb');
  const [icon, setIcon] = useState(folder?.icon ?? 'folder');
  const [parent, setParent] = useState<string>(folder?.parentId ?? '');
  const save = useAction(async () => {
    const body = { name, description, color, icon: icon as ApiBody<'/api/documents/folders'>['icon'], parentId: parent || null };
    const saved = folder
      ? await unwrap(client.PATCH('/api/documents/folders/{folderId}', { params: { path: { folderId: folder.id } }, body }))
      : await unwrap(client.POST('/api/documents/folders', { body }));
    onSaved(saved);
  });
  return (
    <Modal
      title={folder ? 'Edit folder' : 'New folder'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={save.pending} onClick={() => void save.run()}>
            Save
          </Button>
        </>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
        <ErrorBanner error={save.error} />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        <TextArea label="Description" value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
        <div className="grid-2">
          <TextInput label="Colour" type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          <SelectInput label="Icon" value={icon} onChange={(e) => setIcon(e.target.value)} options={Object.entries(FOLDER_ICONS).map(([value, glyph]) => ({ value, label: `${glyph} ${value}` }))} />
        </div>
        <SelectInput
          label="Inside"
          value={parent}
          onChange={(e) => setParent(e.target.value)}
          options={[{ value: '', label: 'Top level' }, ...folderOptions(folders, { exclude: folder?.id })]}
        />
      </form>
    </Modal>
  );
}
