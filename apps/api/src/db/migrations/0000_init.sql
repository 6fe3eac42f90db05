CREATE TABLE "activity_contracts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_contracts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone,
	"contract_type" integer NOT NULL,
	"hours_amount" numeric(12, 2),
	"unit_amount" numeric(12, 2)
);
--> statement-breakpoint
CREATE TABLE "activity_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"date_time" timestamp with time zone NOT NULL,
	"ticket_id" integer,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"display_name" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"email" text,
	"profile_file_id" integer
);
--> statement-breakpoint
CREATE TABLE "appointment_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "appointment_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"title" text NOT NULL,
	"agent_id" integer NOT NULL,
	"default_duration_minutes" integer NOT NULL,
	"slot_minutes" integer NOT NULL,
	"days_ahead" integer NOT NULL,
	"weekly_hours" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appointment_slot_claims" (
	"agent_id" integer NOT NULL,
	"slot_start" timestamp with time zone NOT NULL,
	"appointment_id" integer NOT NULL,
	CONSTRAINT "appointment_slot_claims_agent_id_slot_start_pk" PRIMARY KEY("agent_id","slot_start")
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "appointments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"link_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"cancel_key" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"company_name" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "appointments_cancel_key_unique" UNIQUE("cancel_key")
);
--> statement-breakpoint
CREATE TABLE "assignee_groups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "assignee_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "companies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"company_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"referent_name" text NOT NULL,
	"email" text,
	"phone" text,
	"manage_tickets" boolean DEFAULT false NOT NULL,
	"administrator" boolean DEFAULT false NOT NULL,
	"view_contact_contracts" boolean DEFAULT false NOT NULL,
	"view_recurring_advances" boolean DEFAULT false NOT NULL,
	"view_contact_activity_reports" boolean DEFAULT false NOT NULL,
	"view_contact_wiki" boolean DEFAULT false NOT NULL,
	"view_estimates" boolean DEFAULT false NOT NULL,
	"view_contact_invoices" boolean DEFAULT false NOT NULL,
	"view_contact_documents" boolean DEFAULT false NOT NULL,
	"upload_contact_documents" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_activities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contract_activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"activity_contract_id" integer,
	"package_id" integer,
	"ext_id" bigint NOT NULL,
	"activity_type_name" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"duration_minutes" integer DEFAULT 0 NOT NULL,
	"units" numeric(12, 2),
	"assigned_user" text DEFAULT '' NOT NULL,
	"address_type" integer DEFAULT 0 NOT NULL,
	"address" text,
	"report_file_id" integer
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"document_name" text NOT NULL,
	"create_date" timestamp with time zone NOT NULL,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "estimates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "estimates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"estimate_name" text NOT NULL,
	"estimate_number" text NOT NULL,
	"revision_number" integer DEFAULT 0 NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"estimate_creation_date" timestamp with time zone NOT NULL,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"uploaded_by_contact_id" integer,
	"attached_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"document_number" text NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"invoice_date" timestamp with time zone NOT NULL,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "portals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "portals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"name" text NOT NULL,
	"logo_file_id" integer,
	"base_color" text,
	"custom_css" text DEFAULT '' NOT NULL,
	"footer_custom_html" text DEFAULT '' NOT NULL,
	"disable_html_editor" boolean DEFAULT false NOT NULL,
	"enable_service_contracts" boolean DEFAULT false NOT NULL,
	"privacy_html" text DEFAULT '' NOT NULL,
	"time_zone" text DEFAULT 'Europe/Rome' NOT NULL,
	"default_language" text DEFAULT 'it-IT' NOT NULL,
	"ticket_seq" bigint DEFAULT 0 NOT NULL,
	"comment_seq" bigint DEFAULT 0 NOT NULL,
	"attachment_seq" bigint DEFAULT 0 NOT NULL,
	"document_seq" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portals_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "public_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "public_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recurring_advances" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recurring_advances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"quantity" numeric(12, 2) NOT NULL,
	"taxed_total" numeric(14, 2) NOT NULL,
	"advance_date" timestamp with time zone NOT NULL,
	"trigger" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_contract_documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_contract_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"service_contract_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"document_name" text NOT NULL,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_contract_packages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_contract_packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"service_contract_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"units_text" text DEFAULT '' NOT NULL,
	"residual_text" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_contract_tags" (
	"service_contract_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "service_contract_tags_service_contract_id_tag_id_pk" PRIMARY KEY("service_contract_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "service_contract_wiki_elements" (
	"service_contract_id" integer NOT NULL,
	"wiki_element_id" integer NOT NULL,
	CONSTRAINT "service_contract_wiki_elements_service_contract_id_wiki_element_id_pk" PRIMARY KEY("service_contract_id","wiki_element_id")
);
--> statement-breakpoint
CREATE TABLE "service_contracts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_contracts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"status" integer NOT NULL,
	"active_from" timestamp with time zone NOT NULL,
	"active_to" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "signature_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signature_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"request_id" integer NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_otps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signature_otps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"request_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signature_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signature_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"document_key" text NOT NULL,
	"contact_id" integer NOT NULL,
	"document_name" text NOT NULL,
	"file_id" integer NOT NULL,
	"require_otp" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"signed_file_id" integer
);
--> statement-breakpoint
CREATE TABLE "status_steps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "status_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"task_status" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_closing" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"tag_group_name" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"ticket_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"comment_id" integer,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"file_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"creation_date" timestamp with time zone NOT NULL,
	"sender_contact_id" integer,
	"sender_agent_id" integer,
	"sender_user_id" integer
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL,
	"color" text
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tickets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"ticket_number" text DEFAULT '' NOT NULL,
	"internal_annual_progressive" integer DEFAULT 0 NOT NULL,
	"created_on" timestamp with time zone NOT NULL,
	"type_id" integer NOT NULL,
	"status_step_id" integer NOT NULL,
	"next_planned_activity_info" text,
	"creator_contact_id" integer,
	"assigned_group_id" integer,
	"assigned_user_id" integer,
	"wiki_element_id" integer
);
--> statement-breakpoint
CREATE TABLE "user_contacts" (
	"user_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	CONSTRAINT "user_contacts_user_id_contact_id_pk" PRIMARY KEY("user_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "user_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_name" text NOT NULL,
	"email" text,
	"password_hash" text,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wiki_elements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wiki_elements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"folder_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wiki_folders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wiki_folders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"portal_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wiki_properties" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wiki_properties_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"element_id" integer NOT NULL,
	"ext_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"typology_name" text NOT NULL,
	"data_type" text NOT NULL,
	"value" text,
	"file_id" integer
);
--> statement-breakpoint
ALTER TABLE "activity_contracts" ADD CONSTRAINT "activity_contracts_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_contracts" ADD CONSTRAINT "activity_contracts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_profile_file_id_files_id_fk" FOREIGN KEY ("profile_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_links" ADD CONSTRAINT "appointment_links_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_links" ADD CONSTRAINT "appointment_links_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_slot_claims" ADD CONSTRAINT "appointment_slot_claims_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_slot_claims" ADD CONSTRAINT "appointment_slot_claims_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_link_id_appointment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."appointment_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignee_groups" ADD CONSTRAINT "assignee_groups_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_activities" ADD CONSTRAINT "contract_activities_activity_contract_id_activity_contracts_id_fk" FOREIGN KEY ("activity_contract_id") REFERENCES "public"."activity_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_activities" ADD CONSTRAINT "contract_activities_package_id_service_contract_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."service_contract_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_activities" ADD CONSTRAINT "contract_activities_report_file_id_files_id_fk" FOREIGN KEY ("report_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimates" ADD CONSTRAINT "estimates_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimates" ADD CONSTRAINT "estimates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimates" ADD CONSTRAINT "estimates_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_sha256_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploaded_by_contact_id_contacts_id_fk" FOREIGN KEY ("uploaded_by_contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_files" ADD CONSTRAINT "public_files_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_files" ADD CONSTRAINT "public_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_advances" ADD CONSTRAINT "recurring_advances_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_advances" ADD CONSTRAINT "recurring_advances_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_documents" ADD CONSTRAINT "service_contract_documents_service_contract_id_service_contracts_id_fk" FOREIGN KEY ("service_contract_id") REFERENCES "public"."service_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_documents" ADD CONSTRAINT "service_contract_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_packages" ADD CONSTRAINT "service_contract_packages_service_contract_id_service_contracts_id_fk" FOREIGN KEY ("service_contract_id") REFERENCES "public"."service_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_tags" ADD CONSTRAINT "service_contract_tags_service_contract_id_service_contracts_id_fk" FOREIGN KEY ("service_contract_id") REFERENCES "public"."service_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_tags" ADD CONSTRAINT "service_contract_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_wiki_elements" ADD CONSTRAINT "service_contract_wiki_elements_service_contract_id_service_contracts_id_fk" FOREIGN KEY ("service_contract_id") REFERENCES "public"."service_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contract_wiki_elements" ADD CONSTRAINT "service_contract_wiki_elements_wiki_element_id_wiki_elements_id_fk" FOREIGN KEY ("wiki_element_id") REFERENCES "public"."wiki_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contracts" ADD CONSTRAINT "service_contracts_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_contracts" ADD CONSTRAINT "service_contracts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_events" ADD CONSTRAINT "signature_events_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_otps" ADD CONSTRAINT "signature_otps_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_signed_file_id_files_id_fk" FOREIGN KEY ("signed_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_steps" ADD CONSTRAINT "status_steps_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_links" ADD CONSTRAINT "task_links_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_links" ADD CONSTRAINT "task_links_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_comment_id_ticket_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."ticket_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_sender_contact_id_contacts_id_fk" FOREIGN KEY ("sender_contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_sender_agent_id_agents_id_fk" FOREIGN KEY ("sender_agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_type_id_ticket_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_status_step_id_status_steps_id_fk" FOREIGN KEY ("status_step_id") REFERENCES "public"."status_steps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_creator_contact_id_contacts_id_fk" FOREIGN KEY ("creator_contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_assigned_group_id_assignee_groups_id_fk" FOREIGN KEY ("assigned_group_id") REFERENCES "public"."assignee_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_assigned_user_id_agents_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_wiki_element_id_wiki_elements_id_fk" FOREIGN KEY ("wiki_element_id") REFERENCES "public"."wiki_elements"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_contacts" ADD CONSTRAINT "user_contacts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_contacts" ADD CONSTRAINT "user_contacts_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_elements" ADD CONSTRAINT "wiki_elements_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_elements" ADD CONSTRAINT "wiki_elements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_elements" ADD CONSTRAINT "wiki_elements_folder_id_wiki_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."wiki_folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_folders" ADD CONSTRAINT "wiki_folders_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_folders" ADD CONSTRAINT "wiki_folders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_properties" ADD CONSTRAINT "wiki_properties_element_id_wiki_elements_id_fk" FOREIGN KEY ("element_id") REFERENCES "public"."wiki_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wiki_properties" ADD CONSTRAINT "wiki_properties_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_contracts_ext_uq" ON "activity_contracts" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "activity_contracts_company_idx" ON "activity_contracts" USING btree ("company_id","start");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_reports_ext_uq" ON "activity_reports" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "activity_reports_company_date_idx" ON "activity_reports" USING btree ("company_id","date_time");--> statement-breakpoint
CREATE INDEX "activity_reports_ticket_idx" ON "activity_reports" USING btree ("ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_ext_uq" ON "agents" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_links_key_uq" ON "appointment_links" USING btree ("portal_id","event_key");--> statement-breakpoint
CREATE INDEX "appointments_agent_time_idx" ON "appointments" USING btree ("agent_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "assignee_groups_ext_uq" ON "assignee_groups" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_ext_uq" ON "companies" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_ext_uq" ON "contacts" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "contacts_company_idx" ON "contacts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "contract_activities_ac_idx" ON "contract_activities" USING btree ("activity_contract_id","start");--> statement-breakpoint
CREATE INDEX "contract_activities_pkg_idx" ON "contract_activities" USING btree ("package_id","start");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_ext_uq" ON "documents" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "documents_contact_date_idx" ON "documents" USING btree ("contact_id","create_date");--> statement-breakpoint
CREATE UNIQUE INDEX "estimates_ext_uq" ON "estimates" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "estimates_company_date_idx" ON "estimates" USING btree ("company_id","estimate_creation_date");--> statement-breakpoint
CREATE INDEX "files_portal_sha_idx" ON "files" USING btree ("portal_id","sha256","name","content_type");--> statement-breakpoint
CREATE INDEX "files_uploader_idx" ON "files" USING btree ("uploaded_by_contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_ext_uq" ON "invoices" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "invoices_company_date_idx" ON "invoices" USING btree ("company_id","invoice_date");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."sent_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "public_files_ext_uq" ON "public_files" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recurring_advances_ext_uq" ON "recurring_advances" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "recurring_advances_company_idx" ON "recurring_advances" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "service_contract_documents_sc_idx" ON "service_contract_documents" USING btree ("service_contract_id");--> statement-breakpoint
CREATE INDEX "service_contract_packages_sc_idx" ON "service_contract_packages" USING btree ("service_contract_id");--> statement-breakpoint
CREATE INDEX "service_contract_wiki_elements_wiki_idx" ON "service_contract_wiki_elements" USING btree ("wiki_element_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_contracts_ext_uq" ON "service_contracts" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "service_contracts_company_idx" ON "service_contracts" USING btree ("company_id","active_from");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "signature_events_request_idx" ON "signature_events" USING btree ("request_id","at");--> statement-breakpoint
CREATE INDEX "signature_otps_request_idx" ON "signature_otps" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_requests_key_uq" ON "signature_requests" USING btree ("portal_id","document_key");--> statement-breakpoint
CREATE UNIQUE INDEX "status_steps_ext_uq" ON "status_steps" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_ext_uq" ON "tags" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "task_links_key_uq" ON "task_links" USING btree ("portal_id","event_key");--> statement-breakpoint
CREATE INDEX "ticket_attachments_ticket_idx" ON "ticket_attachments" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_attachments_comment_idx" ON "ticket_attachments" USING btree ("comment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_comments_ext_uq" ON "ticket_comments" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "ticket_comments_ticket_idx" ON "ticket_comments" USING btree ("ticket_id","creation_date");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_types_ext_uq" ON "ticket_types" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_ext_uq" ON "tickets" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "tickets_company_created_idx" ON "tickets" USING btree ("company_id","created_on");--> statement-breakpoint
CREATE INDEX "tickets_creator_created_idx" ON "tickets" USING btree ("creator_contact_id","created_on");--> statement-breakpoint
CREATE INDEX "tickets_wiki_idx" ON "tickets" USING btree ("wiki_element_id");--> statement-breakpoint
CREATE INDEX "user_contacts_contact_idx" ON "user_contacts" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "user_tokens_user_idx" ON "user_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_user_name_uq" ON "users" USING btree (lower("user_name"));--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "wiki_elements_ext_uq" ON "wiki_elements" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "wiki_elements_company_idx" ON "wiki_elements" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "wiki_folders_ext_uq" ON "wiki_folders" USING btree ("portal_id","ext_id");--> statement-breakpoint
CREATE INDEX "wiki_folders_company_idx" ON "wiki_folders" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "wiki_properties_element_idx" ON "wiki_properties" USING btree ("element_id");