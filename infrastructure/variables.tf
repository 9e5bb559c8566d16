# Inputs. Every name the application reads is derived from table_prefix and bucket_name, which
# must match the memory URL: aws://?region=<region>&table_prefix=<table_prefix>&bucket=<bucket_name>&...

variable "region" {
  description = "AWS region for every resource (Bedrock models and S3 Vectors must be available there)."
  type        = string
  default     = "us-east-1"
}

variable "table_prefix" {
  description = "Prefix of the DynamoDB tables: <prefix>-episodes, -facts, -procedures, -confirmations (memory URL table_prefix)."
  type        = string
  default     = "cma"

  validation {
    condition     = can(regex("^[A-Za-z0-9_.-]{1,200}$", var.table_prefix))
    error_message = "table_prefix may hold letters, digits, '_', '.', '-' (1-200 characters)."
  }
}

variable "bucket_name" {
  description = "Globally unique name of the S3 bucket holding fact documents and their .metadata.json sidecars (memory URL bucket)."
  type        = string
}

variable "facts_prefix" {
  description = "Key prefix of fact documents in the bucket; the Knowledge Base data source reads only this prefix (memory URL facts_prefix)."
  type        = string
  default     = "facts"
}

variable "tenants" {
  description = "Tenant ids that get an IAM role confined to their own DynamoDB partitions and S3 prefix."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for t in var.tenants : can(regex("^[a-z0-9][a-z0-9_.-]{0,62}$", t))])
    error_message = "Tenant ids use 1-63 of a-z, 0-9, '_', '-', '.', starting with a letter or digit (as memory.records.Namespace)."
  }
}

variable "tenant_role_trusted_principals" {
  description = "IAM principal ARNs (e.g. the application's task role) allowed to assume the tenant roles."
  type        = list(string)
  default     = []
}

variable "embedding_model_id" {
  description = "Bedrock embedding model of the Knowledge Base; must be the application's embedding model (memory URL kb_embedding_model)."
  type        = string
  default     = "amazon.titan-embed-text-v2:0"
}

variable "embedding_dimensions" {
  description = "Vector size of embedding_model_id (Titan text embeddings v2: 256, 512 or 1024)."
  type        = number
  default     = 1024
}

variable "chat_model_ids" {
  description = "Bedrock chat models the application may invoke (reviewer, compression, extraction)."
  type        = list(string)
  default = [
    "anthropic.claude-3-5-haiku-20241022-v1:0",
    "anthropic.claude-3-5-sonnet-20241022-v2:0",
  ]
}

variable "decay_package_path" {
  description = "Zip of the decay Lambda (the project plus its dependencies; see README.md, 'Build the decay package')."
  type        = string
  default     = "build/decay_lambda.zip"
}

variable "decay_schedule" {
  description = "EventBridge schedule expression of the decay job."
  type        = string
  default     = "cron(17 3 * * ? *)"
}

variable "failed_episode_days" {
  description = "The decay job deletes FAILED episodes older than this many days."
  type        = number
  default     = 7
}

variable "procedure_stale_days" {
  description = "The decay job flags validated procedures not updated for this many days as needs_review."
  type        = number
  default     = 60
}

variable "procedure_min_uses" {
  description = "Uses after which a procedure's success rate is judged (decay flags it below procedure_min_success_rate)."
  type        = number
  default     = 3
}

variable "procedure_min_success_rate" {
  description = "Success rate below which a procedure with procedure_min_uses uses is flagged as needs_review."
  type        = number
  default     = 0.6
}

variable "log_retention_days" {
  description = "Retention of the decay Lambda's CloudWatch logs, in days."
  type        = number
  default     = 365
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
  default     = {}
}
