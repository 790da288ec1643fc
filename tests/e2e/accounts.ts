/**
 * Accounts the browser-test harness writes into the fresh database before the app starts (tests/e2e/seed.ts), in
 * subscription states that a test could not reach through the pages in its own time (a trial that has ended, a
 * plan past due or set to cancel). Plain data: imported by the seed script (Bun) and by the tests (Playwright).
 * The seed signs an access token for each and writes them to E2E_FIXTURES_FILE, so that tests need no login (the
 * login rate limit counts every test's logins from 127.0.0.1).
 */
import type {
  BillingInterval,
  SubscriptionSource,
  SubscriptionStatus,
  SubscriptionType,
} from "../../src/db/column-types.ts";

/** A subscription row to seed; times are offsets from the moment of seeding, in days. */
export interface SeededSubscription {
  status: SubscriptionStatus;
  subscription_type: SubscriptionType;
  billing_interval: BillingInterval;
  is_trial: boolean;
  source: SubscriptionSource;
  trialEndsInDays?: number;
  periodEndsInDays?: number;
  cancel_at_period_end?: boolean;
}

export interface SeededAccount {
  email: string;
  full_name: string;
  subscription: SeededSubscription | null;
}

const paid = (over: Partial<SeededSubscription> = {}): SeededSubscription => ({
  status: "active",
  subscription_type: "plus",
  billing_interval: "annual",
  is_trial: false,
  source: "stripe",
  periodEndsInDays: 300,
  ...over,
});

const trial = (over: Partial<SeededSubscription> = {}): SeededSubscription => ({
  status: "active",
  subscription_type: "plus",
  billing_interval: "annual",
  is_trial: true,
  source: "trial",
  trialEndsInDays: 5,
  periodEndsInDays: 5,
  ...over,
});

export const SUBSCRIPTION_ACCOUNTS = {
  none: { email: "sub-none@e2e.example.com", full_name: "No Subscription", subscription: null },
  trial: { email: "sub-trial@e2e.example.com", full_name: "Trial Running", subscription: trial() },
  expired: {
    email: "sub-expired@e2e.example.com",
    full_name: "Trial Expired",
    subscription: trial({ status: "trial_expired", trialEndsInDays: -2, periodEndsInDays: -2 }),
  },
  // Ended a minute before the app started and never looked at since: still stored as active.
  lapsed: {
    email: "sub-lapsed@e2e.example.com",
    full_name: "Trial Lapsed",
    subscription: trial({ trialEndsInDays: -1 / (24 * 60), periodEndsInDays: -1 / (24 * 60) }),
  },
  active: { email: "sub-active@e2e.example.com", full_name: "Plus Annual", subscription: paid() },
  monthly: {
    email: "sub-monthly@e2e.example.com",
    full_name: "Plus Monthly",
    subscription: paid({ billing_interval: "monthly", periodEndsInDays: 20 }),
  },
  pastDue: {
    email: "sub-past-due@e2e.example.com",
    full_name: "Plus Past Due",
    subscription: paid({ status: "past_due" }),
  },
  canceled: {
    email: "sub-canceled@e2e.example.com",
    full_name: "Plus Canceled",
    subscription: paid({ status: "canceled", periodEndsInDays: -3 }),
  },
  cancelling: {
    email: "sub-cancelling@e2e.example.com",
    full_name: "Plus Cancelling",
    subscription: paid({ cancel_at_period_end: true, periodEndsInDays: 20 }),
  },
  granted: {
    email: "sub-granted@e2e.example.com",
    full_name: "Pro Granted",
    subscription: paid({ subscription_type: "pro", source: "operator", periodEndsInDays: undefined }),
  },
} satisfies Record<string, SeededAccount>;

export type SubscriptionAccountName = keyof typeof SUBSCRIPTION_ACCOUNTS;

/** What the seed writes to E2E_FIXTURES_FILE: an access token per account. */
export type SeededTokens = Record<SubscriptionAccountName, string>;
