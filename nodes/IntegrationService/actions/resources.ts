import { RESOURCES } from '../../shared/catalogue';
import * as authorizationLink from './authorizationLink';
import * as borrower from './borrower';
import * as credential from './credential';
import * as customApiCall from './customApiCall';
import * as document from './document';
import type { ResourceModule } from './generic/resource';
import * as person from './person';
import { catalogueIndex } from './published';
import * as webhook from './webhook';

/** The resources with an index of their own (operations beyond the generic Get and Get Many). */
const WRITTEN: Record<string, ResourceModule> = {
	person,
	authorizationLink,
	credential,
	borrower,
	document,
	webhook,
	customApiCall,
};

/**
 * Every resource of the catalogue with its index: its own where written, else the generic one (with
 * the published write operations, issue 30, where the entry is a published entity). The
 * node's properties and the router's table are both read from here.
 */
export const RESOURCE_MODULES: Record<string, ResourceModule> = Object.fromEntries([
	...Object.entries(WRITTEN),
	...RESOURCES.filter((resource) => !(resource.value in WRITTEN)).map((resource) => [
		resource.value,
		catalogueIndex(resource),
	]),
]);
