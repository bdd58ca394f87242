// The base URL of links for other devices (share and upload links, their QR codes).
// A page opened at localhost would hand out links no phone can open; while the
// server's base URL is this computer, the addresses it listens on in the network
// (`/api/v2/sec/info/addresses`) are used instead, and when it listens on this
// computer only, `reach` says so.
import { computed, ref, type ComputedRef } from 'vue';
import { getAddresses } from '../api/info';
import type { Addresses } from '../api/types';
import { useSettingsStore } from '../stores/settings';

/**
 * `network`: other devices can open the links; `this-computer`: the server listens on
 * this computer only; `no-network`: it listens on the network but the computer has no
 * address in one; `checking`: not known yet.
 */
export type Reach = 'network' | 'this-computer' | 'no-network' | 'checking';

/** True for host names of this computer's loopback interface. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

const CHOICE_KEY = 'service-lan-address';
// one answer per page load, shared by every panel
const addresses = ref<Addresses | null>(null);
const failed = ref(false);
let loading: Promise<void> | null = null;
const chosen = ref<string | null>(readChoice());

function readChoice(): string | null {
  try {
    return localStorage.getItem(CHOICE_KEY);
  } catch {
    return null;
  }
}

function load(): Promise<void> {
  loading ??= getAddresses().then(
    (a) => {
      addresses.value = a;
    },
    () => {
      // without the answer the page's own address is the best there is
      failed.value = true;
      loading = null;
    },
  );
  return loading;
}

export interface LinkBase {
  /** origin for links (`http://192.168.1.20:9090`), no trailing slash */
  base: ComputedRef<string>;
  reach: ComputedRef<Reach>;
  /** the network addresses to choose from when there are several, else empty */
  choices: ComputedRef<string[]>;
  choose(url: string): void;
  /** resolves once `base` is final (at once when the page's address will do) */
  ready: Promise<void>;
}

/** The link base for this page: its public base, or the server's network address while that is this computer. */
export function useLinkBase(): LinkBase {
  const settings = useSettingsStore();
  const local = computed(() => isLoopbackHost(hostOf(settings.publicBase)));
  const ready = local.value ? load() : Promise.resolve();
  const urls = computed(() => (local.value && addresses.value ? addresses.value.urls : []));
  const base = computed(() => {
    const list = urls.value;
    if (list.length === 0) return settings.publicBase;
    return (chosen.value !== null && list.includes(chosen.value) ? chosen.value : list[0]!).replace(/\/+$/, '');
  });
  const reach = computed<Reach>(() => {
    if (!local.value || failed.value) return 'network';
    const a = addresses.value;
    if (!a) return 'checking';
    if (!a.lan) return 'this-computer';
    return a.urls.length > 0 ? 'network' : 'no-network';
  });
  return {
    base,
    reach,
    choices: computed(() => (urls.value.length > 1 ? urls.value : [])),
    choose(url) {
      chosen.value = url;
      try {
        localStorage.setItem(CHOICE_KEY, url);
      } catch {
        // no storage: the choice lasts for this page
      }
    },
    ready,
  };
}
