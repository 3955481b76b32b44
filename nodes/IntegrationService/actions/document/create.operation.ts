import { publishedCreate } from '../published/write';
import { catalogueResource } from '../generic/entity';

/**
 * POST {los}/api/documents (spec 4.7): the new document. Its fields are the catalogue's
 * (nodes/shared/catalogue/losRecords.ts), the eight the specification requires first, shared with
 * the published Update.
 */
export const { description, execute } = publishedCreate(catalogueResource('document'));
