import { personResource } from '../../../shared/catalogue/person';
import { getAllOperation } from '../generic/getAll';

/** GET {crm}/api/people (spec 4.2), page by page: the generic Get Many of the catalogue's Person. */
export const { description, execute } = getAllOperation(personResource);
