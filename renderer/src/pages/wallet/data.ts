// The wallet area's data: every call through the typed client (types from the server's route
// specs), loaded and refreshed with TanStack Query under the entity's `wallet` key.
import { client, invalidateEntity, unwrap, useEntityQuery, type ApiBody, type ApiData } from '../../api';

export type PrivacyStatus = ApiData<'/api/privacy/status'>;
export type ChainStatus = PrivacyStatus['chains'][number];
export type TokenBalance = ApiData<'/api/privacy/balance'>['balances'][number];
export type Activity = ApiData<'/api/privacy/history'>['items'][number];
export type RelayChoice = ApiData<'/api/privacy/relay-quote'>;
export type RelayJob = ApiData<'/api/privacy/relay-jobs/{jobId}'>;
export type ChainHealth = ApiData<'/api/privacy/health'>;
export type PreparedTransfer = ApiData<'/api/privacy/transfers/prepare', 'post'>;
export type TransferRequest = ApiBody<'/api/privacy/transfers/prepare'>;

export const NATIVE = '0x0000000000000000000000000000000000000000';

/** Refetches everything the wallet page shows (after a transfer, a resync, a funding). */
export const refreshWallet = () => invalidateEntity('wallet');

/** Statuses update live: quickly while something is in flight, slowly otherwise. */
const livePoll = (busy: boolean) => (busy ? 2000 : 8000);

export function useWalletStatus() {
  return useEntityQuery(['wallet', 'status'], () => unwrap(client.GET('/api/privacy/status')), { refetchInterval: 8000 });
}

export function useBalances(chain: string, enabled: boolean) {
  return useEntityQuery(['wallet', 'balance', chain], () => unwrap(client.GET('/api/privacy/balance', { params: { query: { chain } } })), { enabled, refetchInterval: 8000 });
}

export function useHistory(chain?: string) {
  return useEntityQuery(['wallet', 'history', chain ?? null], () => unwrap(client.GET('/api/privacy/history', { params: { query: { ...(chain ? { chain } : {}), limit: 50 } } })), {
    refetchInterval: (q) => livePoll(q.state.data?.items.some((a) => a.status === 'submitted' || a.status === 'proved') ?? false),
  });
}

/** Whether the chain's node and bundler answer: asked often while one does not, so the banner goes by itself. */
export function useChainHealth(chain: string, enabled: boolean) {
  return useEntityQuery(['wallet', 'health', chain], () => unwrap(client.GET('/api/privacy/health', { params: { query: { chain } } })), {
    enabled,
    refetchInterval: (q) => (q.state.data && (!q.state.data.rpc.ok || !q.state.data.bundler.ok) ? 4000 : 15000),
  });
}

export function usePublicAccounts(chain: string) {
  return useEntityQuery(['wallet', 'accounts', chain], () => unwrap(client.GET('/api/privacy/accounts', { params: { query: { chain } } })));
}

/** Who would relay (and its fee); null when it cannot be asked now. */
export function useRelayChoice(chain: string, token?: string) {
  return useEntityQuery(['wallet', 'relay-quote', chain, token ?? null], () => unwrap(client.GET('/api/privacy/relay-quote', { params: { query: { chain, ...(token ? { token } : {}) } } })).catch(() => null));
}

/** A hosted relay job, asked every two seconds until it settles. */
export function useRelayJob(jobId: string) {
  return useEntityQuery(['wallet', 'relay-job', jobId], () => unwrap(client.GET('/api/privacy/relay-jobs/{jobId}', { params: { path: { jobId } } })), {
    refetchInterval: (q) => (q.state.data?.status === 'confirmed' || q.state.data?.status === 'failed' ? false : 2000),
  });
}

export function useLedgerAccounts() {
  return useEntityQuery(['ledger', 'accounts'], () => unwrap(client.GET('/api/ledger/accounts')));
}

export const walletCalls = {
  initialize: () => unwrap(client.POST('/api/privacy/initialize', { body: {} })),
  resync: (chain: string) => unwrap(client.POST('/api/privacy/resync', { body: { chain } })),
  accounts: (chain: string) => unwrap(client.GET('/api/privacy/accounts', { params: { query: { chain } } })),
  devnetFund: (chain: string, target: 'account' | 'relayer') => unwrap(client.POST('/api/privacy/devnet-fund', { body: { chain, target } })),
  shield: (body: ApiBody<'/api/privacy/shield'>) => unwrap(client.POST('/api/privacy/shield', { body })),
  quote: (chain: string, token: string) => unwrap(client.GET('/api/privacy/relay-quote', { params: { query: { chain, token } } })),
  prepare: (body: TransferRequest) => unwrap(client.POST('/api/privacy/transfers/prepare', { body })),
  confirm: (body: ApiBody<'/api/privacy/transfers/confirm'>) => unwrap(client.POST('/api/privacy/transfers/confirm', { body })),
  retry: (id: string) => unwrap(client.POST('/api/privacy/transfers/{id}/retry', { params: { path: { id } }, body: {} })),
};
