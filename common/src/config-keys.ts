// App configuration keys (spec part 1 §3) with defaults, kind and visibility — no zod here, so the
// sign-in screens can read defaults without pulling the schema library onto the login route's critical path.
// 'secret' values are encrypted at rest, never sent by GET /api/appconfig, masked in the admin view.
export type ConfigKind = 'text' | 'bool' | 'url' | 'json' | 'color' | 'secret' | 'longtext';

export interface ConfigKeyDef {
  kind: ConfigKind;
  default: string;
  /** Sent to every visitor by GET /api/appconfig. */
  public: boolean;
}

const text = (def = '', pub = true): ConfigKeyDef => ({ kind: 'text', default: def, public: pub });
const bool = (def: boolean): ConfigKeyDef => ({ kind: 'bool', default: String(def), public: true });
const url = (def = '', pub = true): ConfigKeyDef => ({ kind: 'url', default: def, public: pub });
const secret = (): ConfigKeyDef => ({ kind: 'secret', default: '', public: false });

export const CONFIG_KEYS = {
  app_name: text('Pluma'),
  title: text('Pluma — write 10× faster with AI'),
  tagline: text('Chat, templates, avatars and documents: your AI writing studio.'),
  email: text('support@example.com'),
  dark_logo: url(),
  light_logo: url(),
  favicon_url: url(),
  // spec part 2 §3 lists `favicon` beside favicon_url among the keys the app shell reads.
  favicon: url(),
  landing_image_src: url(),
  landing_logo_src: url(),
  landing_enabled: bool(true),
  spanish_enabled: bool(true),
  signup_enabled: bool(true),
  landing_bg_className: text(),
  landing_text_className: text(),
  high_ticket_offer_name: text(),
  high_ticket_offer_link: url(),
  feature1_title: text('Chat with the best models'),
  feature1_description: text('GPT, Claude and Grok in one place, with your conversations saved and searchable.'),
  feature2_title: text('Templates and workflows'),
  feature2_description: text('Fill in a few fields and get posts, emails and scripts in your voice.'),
  feature3_title: text('Avatars that know you'),
  feature3_description: text('Train personas with your context and files so every answer sounds like you.'),
  benefit1_title: text(),
  benefit1_description: text(),
  benefit2_title: text(),
  benefit2_description: text(),
  benefit3_title: text(),
  benefit3_description: text(),
  avatars_enabled: bool(true),
  super_fetch: bool(true),
  templates_enabled: bool(true),
  documents_enabled: bool(true),
  hashtags_enabled: bool(true),
  topics_enabled: bool(true),
  chatwidget_enabled: bool(true),
  tutorials_enabled: bool(true),
  organizations_enabled: bool(true),
  search_enabled: bool(true),
  firebaseConfig: { kind: 'json', default: '', public: false },
  bucket: text('', false),
  region: text('', false),
  S3_ENDPOINT: url('', true),
  stripe_public_key: text('', true),
  stripe_private_key: secret(),
  stripe_webhook_key: secret(),
  openai_secret_key: secret(),
  openai_model: text('gpt-4o-mini', true),
  // Web search in chat (issue 32): '' (off), 'searxng', 'brave' or 'tavily'. Public: the composer shows its
  // globe only when a provider is set. The URL is SearXNG's (or a provider's API base); the key Brave's or Tavily's.
  web_search_provider: text('', true),
  web_search_url: url('', false),
  web_search_api_key: secret(),
  // Phone sign-in codes by SMS (issue 33 item 1): Twilio when all three are set, else the SMS outbox.
  twilio_account_sid: text('', false),
  twilio_auth_token: secret(),
  twilio_from_number: text('', false),
  welcome_email_webhook_url: url('', false),
  reset_password_email_webhook_url: url('', false),
  super_fetch_prompt: { kind: 'longtext', default: '', public: false },
  templates_default_sort: text('createdAt_desc'),
  app_css: { kind: 'longtext', default: '', public: true },
  social_media_image: url(),
  head_tracking_codes: { kind: 'longtext', default: '', public: true },
  body_tracking_codes: { kind: 'longtext', default: '', public: true },
  primary_color: { kind: 'color', default: '#6d28d9', public: true },
  accent_color: { kind: 'color', default: '#f59e0b', public: true },
} satisfies Record<string, ConfigKeyDef>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

/**
 * Text keys that take one of a few values, shown as a select in the admin settings (issue 32: the web
 * search provider; '' is "none"). The server refuses any other value.
 */
export const CONFIG_CHOICES: Partial<Record<ConfigKey, readonly string[]>> = {
  web_search_provider: ['', 'searxng', 'brave', 'tavily'],
};
export const isConfigKey = (key: string): key is ConfigKey => Object.hasOwn(CONFIG_KEYS, key);
