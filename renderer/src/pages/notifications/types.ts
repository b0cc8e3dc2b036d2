export interface Notification {
  id: string;
  entityId: string;
  userId: string | null;
  type: string;
  title: string;
  body: string | null;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}
