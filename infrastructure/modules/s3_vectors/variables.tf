variable "table_prefix" {
  description = "Prefix of every resource name (the root module's table_prefix)."
  type        = string
}

variable "kms_key_arn" {
  description = "The memory key that encrypts both vector buckets."
  type        = string
}

variable "embedding_dimensions" {
  description = "Vector size of the Knowledge Base's embedding model."
  type        = number
}

variable "role_arn" {
  description = "The Knowledge Base's service role (../../knowledge_base.tf)."
  type        = string
}

variable "role_policy_id" {
  description = "The id of that role's access policy: the Knowledge Base is created after it."
  type        = string
}

variable "embedding_model_arn" {
  description = "The embedding model the Knowledge Base embeds fact documents with."
  type        = string
}
