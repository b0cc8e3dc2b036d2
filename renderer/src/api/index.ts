export { ApiError, getCurrentEntity, setCurrentEntity, withQuery, request, api } from './http';
export { client, unwrap, type ApiData, type ApiBody, type ApiQuery, type Schema, type paths, type components } from './client';
export { queryClient, entityKey, useEntityQuery, invalidateEntity } from './queries';
export { unwrapCursorPage, type CursorPage } from './paging';
export { apiHref } from './href';
