/** Customers: one per phone number per organisation, created by the first phone conversation that reaches it. */
import type { Customer } from '../generated/src/types.gen.js';
import { type Clock, isoNow } from './clock.js';
import { notFound } from './errors.js';
import { newId } from './ids.js';
import type { Locks } from './keyed-queue.js';
import type { Store } from './store/types.js';

/** Finds or creates customers by phone number. */
export class CustomerDirectory {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly queue: Locks,
  ) {}

  /** The organisation's customer with this number, created if it is the first time. */
  identify(org: string, phoneNo: string): Promise<Customer> {
    return this.queue.run(`customer:${org}:${phoneNo}`, async () => {
      const [found] = await this.store.customers.list({
        where: { organization_id: org, phone_no: phoneNo },
        order: 'asc',
        limit: 1,
      });
      if (found !== undefined) return found;
      const now = isoNow(this.clock);
      const customer: Customer = {
        id: newId('cus'),
        created_at: now,
        updated_at: now,
        organization_id: org,
        phone_no: phoneNo,
        email: null,
        name: null,
        external_id: null,
        helpdesk_user_id: null,
        crm_lead_id: null,
        crm_contact_id: null,
        preferred_language: null,
        extra: null,
      };
      await this.store.customers.put(customer);
      return customer;
    });
  }

  /** `GET /customers/{customer_id}`; 404 for an unknown id or another organisation's customer. */
  async get(org: string, id: string): Promise<Customer> {
    const customer = await this.store.customers.get(id);
    if (customer === undefined || customer.organization_id !== org) throw notFound('customer', id);
    return customer;
  }
}
