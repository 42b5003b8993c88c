/** A hand-written `paths` type in openapi-typescript's shape, for typing `createCore` in the tests. */

/** An item of the test API. */
export interface Item {
  id: string;
  name: string;
}

interface NoParams {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}

interface Json<T> {
  headers: { [name: string]: unknown };
  content: { 'application/json': T };
}

interface ErrorJson {
  headers: { [name: string]: unknown };
  content: { 'application/json': { code: string; transient: boolean; message: string } };
}

/** The test API: list and create items, read, replace or delete one. */
export interface paths {
  '/items': {
    parameters: NoParams;
    get: {
      parameters: { query?: { cursor?: string; limit?: number }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<{ data: Item[]; cursor: string | null }>; default: ErrorJson };
    };
    post: {
      parameters: NoParams;
      requestBody: { content: { 'application/json': { name: string } } };
      responses: { 200: Json<Item>; default: ErrorJson };
    };
  };
  '/items/{item_id}': {
    parameters: NoParams;
    get: {
      parameters: { query?: never; header?: never; path: { item_id: string }; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<Item>; default: ErrorJson };
    };
    put: {
      parameters: { query?: never; header?: never; path: { item_id: string }; cookie?: never };
      requestBody: { content: { 'application/json': { name: string } } };
      responses: { 200: Json<Item>; default: ErrorJson };
    };
    delete: {
      parameters: { query?: never; header?: never; path: { item_id: string }; cookie?: never };
      requestBody?: never;
      responses: { 204: { headers: { [name: string]: unknown }; content?: never }; default: ErrorJson };
    };
  };
  '/procedures': {
    parameters: NoParams;
    get: {
      parameters: { query?: { cursor?: string }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<{ page: Item[]; cursor: string | null }>; default: ErrorJson };
    };
  };
}
