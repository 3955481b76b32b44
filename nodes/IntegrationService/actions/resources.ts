import { RESOURCES } from '../../shared/catalogue';
import * as authorizationLink from './authorizationLink';
import * as credential from './credential';
import * as customApiCall from './customApiCall';
import { entityResource } from './entity';
import type { ResourceModule } from './modules';
import * as webhook from './webhook';

/** The resources whose API is special, written by hand; every other resource is its catalogue entry's. */
const HAND_WRITTEN: Record<string, ResourceModule> = {
	authorizationLink,
	credential,
	customApiCall,
	webhook,
};

/** Every resource's properties and operations: the node's properties and the router's table. */
export const RESOURCE_MODULES: Record<string, ResourceModule> = Object.fromEntries(
	RESOURCES.map((resource) => [
		resource.value,
		HAND_WRITTEN[resource.value] ?? entityResource(resource),
	]),
);
