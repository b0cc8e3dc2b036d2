// A hosted instance given a public address after devices linked to it: each device asks once per
// start, and the requests it sends from then on get links to the hosted signing pages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { freePort } from '../helpers/net.js';
import { makeClient, startTestServer, type TestServer } from '../helpers/server.js';
import { draftRequest } from '../integration/documents-helpers.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-public-url-'));
let hosted: RunningHosted | undefined;
let device: TestServer | undefined;
afterAll(async () => {
  await device?.close();
  await hosted?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('learns the public address the hosted instance was given after the link', async () => {
  const port = await freePort();
  hosted = await startHosted({ port, dataDir: path.join(root, 'hosted'), logLevel: 'silent' });
  device = await startTestServer({ dataDir: path.join(root, 'device') });
  const owner = await device.signup({ entityName: 'Late Public Ltd' });
  expect((await owner.post('/api/sync/link', { hostedUrl: hosted.url, email: owner.email, password: owner.password })).status).toBe(201);
  const before = await draftRequest(owner);
  expect((await owner.patch(`/api/documents/signature-requests/${before.requestId}`, { action: 'send' })).body.publicSigning).toBe(false);

  await hosted.close();
  hosted = await startHosted({ port, dataDir: path.join(root, 'hosted'), logLevel: 'silent', publicUrl: `http://127.0.0.1:${port}` });
  await device.close();
  device = await startTestServer({ dataDir: path.join(root, 'device') });
  const again = makeClient(device.url, { cookie: owner.cookie, origin: device.url, 'x-entity-id': owner.entityId });
  expect((await again.post('/api/sync/run', {})).body.state).toBe('synced');
  const after = await draftRequest(again);
  const sent = await again.patch(`/api/documents/signature-requests/${after.requestId}`, { action: 'send' });
  expect(sent.body.publicSigning).toBe(true);
  const link = await again.post(`/api/documents/signature-requests/${after.requestId}/signers/${after.signers[0].id}/signing-link`, {});
  expect(link.body.url.startsWith(`http://127.0.0.1:${port}/sign/`)).toBe(true);
});
