/** The transport's surface: every request goes through `serviceRequest` or `serviceRequestPages` (a list). */
import { MAX_CURSOR_LENGTH as maxCursorLength } from './cursor';
import * as paging from './paging';
import * as request from './request';
import { DEFAULT_SETTINGS as defaultSettings } from './run';

export type { PageRequest, PagingResult } from './paging';
export type { Connection, ServiceRequest } from './request';
export type { RequestSettings, ServiceContext, ServiceRun } from './run';

// Assigned, not re-exported: a re-export compiles to a getter, one more function on every call.
export const serviceRequest = request.serviceRequest;
export const serviceRequestPages = paging.serviceRequestPages;
export const MAX_PAGE_SIZE = paging.MAX_PAGE_SIZE;
export const MAX_RECORDS = paging.MAX_RECORDS;
export const CREDENTIAL_DEFAULT = request.CREDENTIAL_DEFAULT;
export const newRun = request.newRun;
export const startItem = request.startItem;
export const stopRun = request.stopRun;
export const redactRunError = request.redactRunError;
export const DEFAULT_SETTINGS = defaultSettings;
export const MAX_CURSOR_LENGTH = maxCursorLength;
