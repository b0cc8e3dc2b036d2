/** Member roles, strongest first. */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'DOCUMENTS.VIEW',
  'DOCUMENTS.SIGN',
  'DOCUMENTS.EDIT',
  'HELPDESK.VIEW',
  'HELPDESK.EDIT',
  'LEDGER.VIEW',
  'LEDGER.POST',
  'LEDGER.APPROVE',
  'WEBHOOKS.VIEW',
  'WEBHOOKS.MANAGE',
  'NOTIFICATIONS.VIEW',
  'NOTIFICATIONS.CREATE',
  'PRIVACY.USE',
  'MEMBERS.VIEW',
  'MEMBERS.MANAGE',
  'SETTINGS.MANAGE',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each role may do. Owners and admins differ only in who may appoint owners. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: [
    'DOCUMENTS.VIEW',
    'DOCUMENTS.SIGN',
    'DOCUMENTS.EDIT',
    'HELPDESK.VIEW',
    'HELPDESK.EDIT',
    'LEDGER.VIEW',
    'LEDGER.POST',
    'WEBHOOKS.VIEW',
    'NOTIFICATIONS.VIEW',
    'NOTIFICATIONS.CREATE',
    'PRIVACY.USE',
    'MEMBERS.VIEW',
  ],
  viewer: ['DOCUMENTS.VIEW', 'HELPDESK.VIEW', 'LEDGER.VIEW', 'WEBHOOKS.VIEW', 'NOTIFICATIONS.VIEW', 'MEMBERS.VIEW'],
};

export const SCOPES = [
  'read:documents',
  'write:documents',
  'read:helpdesk',
  'write:helpdesk',
  'read:ledger',
  'write:ledger',
  'read:webhooks',
  'write:webhooks',
  'read:notifications',
  'write:notifications',
] as const;
export type Scope = (typeof SCOPES)[number];

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}
