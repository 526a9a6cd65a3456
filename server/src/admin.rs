//! `folio admin`: companies, API keys, webhooks and cabinet users, on the server's database (works while the
//! server runs). Every command prints one JSON object on stdout; errors go to stderr with exit
//! status 1 (not found) or 2 (bad arguments).

use crate::serve::db::Db;
use crate::serve::store::{self, NewCompany, NewWebhook};
use clap::{Args as ClapArgs, Subcommand};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;

/// `folio admin ...`.
#[derive(ClapArgs, Debug)]
pub struct AdminArgs {
    /// Data directory of the server.
    #[arg(
        long,
        env = "FOLIO_DATA_DIR",
        default_value = "./folio-data",
        global = true
    )]
    data_dir: PathBuf,
    /// The server's database when it is not the embedded one of the data directory:
    /// `postgres://user:password@host:port/database`.
    #[arg(long, env = "FOLIO_DATABASE_URL", global = true)]
    database: Option<String>,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Subcommand, Debug)]
enum AdminCommand {
    /// Companies: create, top up, show.
    #[command(subcommand)]
    Company(CompanyCommand),
    /// API keys: create, revoke.
    #[command(subcommand)]
    Key(KeyCommand),
    /// Webhooks: create, disable.
    #[command(subcommand)]
    Webhook(WebhookCommand),
    /// Users of the web cabinet: create, disable, new sign-in link.
    #[command(subcommand)]
    User(UserCommand),
}

#[derive(Subcommand, Debug)]
enum UserCommand {
    /// Creates a user of a company. Without `--password-stdin` the command prints a one-time
    /// link (valid 72 hours) where the user sets a password.
    Create {
        /// Company id.
        #[arg(long)]
        company: String,
        /// E-mail (the sign-in name).
        #[arg(long)]
        email: String,
        /// Read the password from the first line of standard input instead.
        #[arg(long)]
        password_stdin: bool,
        /// The cabinet's address as users reach it, for the link.
        #[arg(
            long,
            env = "FOLIO_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        public_url: String,
    },
    /// Disables a user: its sessions end, it cannot sign in.
    Disable {
        /// E-mail.
        #[arg(long)]
        email: String,
    },
    /// Prints a new one-time link to set a user's password (the old link stops working).
    Link {
        /// E-mail.
        #[arg(long)]
        email: String,
        /// The cabinet's address as users reach it, for the link.
        #[arg(
            long,
            env = "FOLIO_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        public_url: String,
    },
}

/// The link that sets a password.
fn setup_link(public_url: &str, token: &str) -> String {
    format!(
        "{}/cabinet/set-password?token={token}",
        public_url.trim_end_matches('/')
    )
}

/// The password of `user create --password-stdin`, checked.
fn password_from_stdin() -> Result<String, (u8, String)> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| (2, format!("cannot read the password: {e}")))?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    match crate::serve::cabinet::password::weakness(&password) {
        Some(why) => Err((2, why)),
        None => Ok(password),
    }
}

#[derive(Subcommand, Debug)]
enum CompanyCommand {
    /// Creates a company.
    Create {
        /// Display name.
        #[arg(long)]
        name: String,
        /// Starting document balance.
        #[arg(long, default_value_t = 0)]
        balance: i64,
        /// Files per operation (1 to 100).
        #[arg(long, default_value_t = 20)]
        max_files: i64,
        /// Largest file, MB.
        #[arg(long, default_value_t = 20)]
        max_file_size_mb: i64,
        /// Most pages per document.
        #[arg(long, default_value_t = 60)]
        max_pages: i64,
        /// Enhanced recognition when an upload does not say.
        #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
        heavy_default: bool,
    },
    /// Adds documents to the balance.
    Topup {
        /// Company id.
        #[arg(long)]
        company: String,
        /// Documents to add.
        #[arg(long)]
        documents: i64,
    },
    /// Prints a company.
    Show {
        /// Company id.
        #[arg(long)]
        company: String,
    },
}

#[derive(Subcommand, Debug)]
enum KeyCommand {
    /// Creates an API key; its secret is printed this once.
    Create {
        /// Company id.
        #[arg(long)]
        company: String,
        /// Comma-separated permissions: operations:write, operations:read, documents:read,
        /// usage:read.
        #[arg(long, value_delimiter = ',')]
        permissions: Vec<String>,
        /// Documents per month (none: unlimited).
        #[arg(long)]
        monthly_limit: Option<i64>,
        /// Display name.
        #[arg(long)]
        name: Option<String>,
    },
    /// Revokes a key.
    Revoke {
        /// Key id (`key_...`).
        #[arg(long)]
        key_id: String,
    },
}

#[derive(Subcommand, Debug)]
enum WebhookCommand {
    /// Creates a webhook.
    Create {
        /// Company id.
        #[arg(long)]
        company: String,
        /// Target URL.
        #[arg(long)]
        url: String,
        /// Display name.
        #[arg(long)]
        name: Option<String>,
        /// Signing secret (generated and printed when signing is required and none is given).
        #[arg(long)]
        secret: Option<String>,
        /// Sign requests.
        #[arg(long)]
        signature_required: bool,
        /// Use for operations without their own webhook_url.
        #[arg(long)]
        default: bool,
        /// Delivery attempts before FAILED.
        #[arg(long, default_value_t = store::DEFAULT_MAX_ATTEMPTS)]
        max_attempts: u32,
        /// Pauses between attempts, seconds, comma separated.
        #[arg(long, value_delimiter = ',', default_values_t = store::DEFAULT_RETRY_DELAYS)]
        retry_delays: Vec<u64>,
    },
    /// Disables a webhook.
    Disable {
        /// Webhook id.
        #[arg(long)]
        id: String,
    },
}

fn print(v: &Value) -> ExitCode {
    println!("{v}");
    ExitCode::SUCCESS
}

fn fail(code: u8, msg: &str) -> ExitCode {
    eprintln!("{}", json!({ "error": msg }));
    ExitCode::from(code)
}

/// Runs an admin command.
pub fn run(args: AdminArgs) -> ExitCode {
    // Read before the database is opened: a wrong password changes nothing.
    let password = match &args.command {
        AdminCommand::User(UserCommand::Create {
            password_stdin: true,
            ..
        }) => match password_from_stdin()
            .and_then(|p| crate::serve::cabinet::password::hash(&p).map_err(|e| (3, e)))
        {
            Ok(h) => Some(h),
            Err((code, msg)) => return fail(code, &msg),
        },
        _ => None,
    };
    let db = match Db::open_setting(args.database.as_deref(), &args.data_dir, 1) {
        Ok(db) => db,
        Err(e) => return fail(3, &e.to_string()),
    };
    let r = db.with(|c| {
        Ok(match &args.command {
            AdminCommand::Company(CompanyCommand::Create {
                name,
                balance,
                max_files,
                max_file_size_mb,
                max_pages,
                heavy_default,
            }) => {
                if !(1..=100).contains(max_files)
                    || *max_file_size_mb < 1
                    || *max_pages < 1
                    || *balance < 0
                {
                    return Ok(Err((
                        2,
                        "max-files must be 1..=100; sizes, pages >= 1; balance >= 0".to_string(),
                    )));
                }
                Ok(store::create_company(
                    c,
                    &NewCompany {
                        name: name.clone(),
                        balance: *balance,
                        max_files: *max_files,
                        max_file_size_mb: *max_file_size_mb,
                        max_pages: *max_pages,
                        heavy_default: *heavy_default,
                    },
                )?)
            }
            AdminCommand::Company(CompanyCommand::Topup { company, documents }) => {
                if *documents <= 0 {
                    return Ok(Err((2, "documents must be positive".to_string())));
                }
                store::topup(c, company, *documents)?.ok_or((1, format!("no company {company}")))
            }
            AdminCommand::Company(CompanyCommand::Show { company }) => {
                store::company_json(c, company)?.ok_or((1, format!("no company {company}")))
            }
            AdminCommand::Key(KeyCommand::Create {
                company,
                permissions,
                monthly_limit,
                name,
            }) => {
                let perms: Vec<String> = permissions.iter().map(|p| p.trim().to_string()).collect();
                if perms.is_empty() {
                    return Ok(Err((2, "give at least one permission".to_string())));
                }
                if let Some(p) = perms
                    .iter()
                    .find(|p| !store::PERMISSIONS.contains(&p.as_str()))
                {
                    return Ok(Err((
                        2,
                        format!(
                            "unknown permission {p} (known: {})",
                            store::PERMISSIONS.join(", ")
                        ),
                    )));
                }
                if monthly_limit.is_some_and(|l| l < 0) {
                    return Ok(Err((2, "monthly-limit must be >= 0".to_string())));
                }
                match store::create_key(c, company, &perms, *monthly_limit, name.as_deref())? {
                    Some((id, key)) => Ok(json!({
                        "api_key_id": id,
                        "api_key": key,
                        "company_id": company,
                        "permissions": perms,
                        "monthly_limit": monthly_limit,
                    })),
                    None => Err((1, format!("no company {company}"))),
                }
            }
            AdminCommand::Key(KeyCommand::Revoke { key_id }) => {
                if store::revoke_key(c, key_id)? {
                    Ok(json!({ "api_key_id": key_id, "status": "REVOKED" }))
                } else {
                    Err((1, format!("no key {key_id}")))
                }
            }
            AdminCommand::Webhook(WebhookCommand::Create {
                company,
                url,
                name,
                secret,
                signature_required,
                default,
                max_attempts,
                retry_delays,
            }) => {
                if url::Url::parse(url).is_err() {
                    return Ok(Err((2, format!("not a URL: {url}"))));
                }
                if *max_attempts < 1 || retry_delays.is_empty() {
                    return Ok(Err((
                        2,
                        "max-attempts >= 1 and at least one delay".to_string(),
                    )));
                }
                store::create_webhook(
                    c,
                    &NewWebhook {
                        company_id: company.clone(),
                        url: url.clone(),
                        name: name.clone(),
                        secret: secret.clone(),
                        signature_required: *signature_required,
                        is_default: *default,
                        max_attempts: *max_attempts,
                        retry_delays: retry_delays.clone(),
                    },
                )?
                .ok_or((1, format!("no company {company}")))
            }
            AdminCommand::User(UserCommand::Create {
                company,
                email,
                public_url,
                ..
            }) => {
                if !email.contains('@') || email.trim().len() < 3 || email.len() > 254 {
                    return Ok(Err((2, format!("not an e-mail address: {email}"))));
                }
                match store::create_user(c, company, email, password.as_deref())? {
                    Ok((id, token)) => Ok(json!({
                        "user_id": id,
                        "company_id": company,
                        "email": store::normalize_email(email),
                        "set_password_link": token.map(|t| setup_link(public_url, &t)),
                    })),
                    Err(store::NewUserRefusal::NoCompany) => {
                        Err((1, format!("no company {company}")))
                    }
                    Err(store::NewUserRefusal::EmailTaken) => {
                        Err((2, format!("a user with the e-mail {email} exists")))
                    }
                }
            }
            AdminCommand::User(UserCommand::Disable { email }) => {
                if store::disable_user(c, email)? {
                    Ok(json!({ "email": store::normalize_email(email), "status": "DISABLED" }))
                } else {
                    Err((1, format!("no user {email}")))
                }
            }
            AdminCommand::User(UserCommand::Link { email, public_url }) => {
                match store::reset_setup_token(c, email)? {
                    Some(token) => Ok(json!({
                        "email": store::normalize_email(email),
                        "set_password_link": setup_link(public_url, &token),
                    })),
                    None => Err((1, format!("no user {email}"))),
                }
            }
            AdminCommand::Webhook(WebhookCommand::Disable { id }) => {
                if store::disable_webhook(c, id)? {
                    Ok(json!({ "webhook_id": id, "status": "DISABLED" }))
                } else {
                    Err((1, format!("no webhook {id}")))
                }
            }
        })
    });
    match r {
        Ok(Ok(v)) => print(&v),
        Ok(Err((code, msg))) => fail(code, &msg),
        Err(e) => fail(3, &e.to_string()),
    }
}
