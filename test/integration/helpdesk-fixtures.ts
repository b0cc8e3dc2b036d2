import { makeClient, type Client, type SessionClient, type TestServer } from '../helpers/server.js';

/** Adds a second person to `owner`'s entity with `role` and returns their client for that entity. */
export async function addMemberClient(server: TestServer, owner: SessionClient, role: 'admin' | 'member' | 'viewer'): Promise<Client & { userId: string; name: string }> {
  const other = await server.signup();
  const res = await owner.post(`/api/entities/${owner.entityId}/members`, { email: other.email, role });
  if (res.status !== 201) throw new Error(`add member failed: ${res.status} ${JSON.stringify(res.body)}`);
  const client = makeClient(server.url, { cookie: other.cookie, origin: server.url, 'x-entity-id': owner.entityId });
  return Object.assign(client, { userId: other.user.id, name: other.user.name });
}
