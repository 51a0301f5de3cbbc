/**
 * Webhook lifecycle methods for hooks that nothing registers remotely: the gateway has no API to
 * register a notify hook (its URL travels with each Blend request), and a resume webhook is n8n's
 * own. So checking, creating and deleting have nothing to do; n8n (and its lint) want them present.
 */
import type { IHookFunctions } from 'n8n-workflow';

export const noRemoteRegistration = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};
