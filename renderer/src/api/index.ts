export { ApiError, getCurrentEntity, setCurrentEntity, withQuery } from './http';
export { client, unwrap, type ApiData, type ApiBody, type ApiQuery, type Schema, type paths, type components } from './client';
export { queryClient, entityKey, keyOfEntity, useEntityQuery, invalidateEntity, setEntityData } from './queries';
export { apiUrl } from './urls';
export { uploadFile, unwrapPage, type Page } from './raw';
export { useEntityPages } from './pages';
