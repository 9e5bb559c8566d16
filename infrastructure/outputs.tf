# What the application needs: paste memory_url into CONTRACT_AGENT_MEMORY_URL.

output "memory_url" {
  description = "The memory URL for CONTRACT_AGENT_MEMORY_URL (tables, bucket, Knowledge Base, its embedding model, vector bucket)."
  value       = "aws://?region=${var.region}&table_prefix=${var.table_prefix}&bucket=${aws_s3_bucket.facts.id}&facts_prefix=${var.facts_prefix}&kb_id=${module.s3_vectors.knowledge_base_id}&data_source_id=${aws_bedrockagent_data_source.facts.data_source_id}&kb_embedding_model=${var.embedding_model_id}&vector_bucket=${module.s3_vectors.memory_bucket_name}"
}

output "table_names" {
  description = "DynamoDB table of each tier."
  value = {
    episodes      = aws_dynamodb_table.episodes.name
    facts         = aws_dynamodb_table.facts.name
    procedures    = aws_dynamodb_table.procedures.name
    confirmations = aws_dynamodb_table.confirmations.name
    telemetry     = aws_dynamodb_table.telemetry.name
  }
}

output "bucket" {
  description = "S3 bucket of the fact documents and their .metadata.json sidecars."
  value       = aws_s3_bucket.facts.id
}

output "vector_bucket" {
  description = "S3 Vectors bucket of the episode and fact indexes, one per tenant and model (memory URL vector_bucket)."
  value       = module.s3_vectors.memory_bucket_name
}

output "knowledge_base_id" {
  description = "Bedrock Knowledge Base id (memory URL kb_id)."
  value       = module.s3_vectors.knowledge_base_id
}

output "data_source_id" {
  description = "Knowledge Base data source id (memory URL data_source_id)."
  value       = aws_bedrockagent_data_source.facts.data_source_id
}

output "tenant_role_arns" {
  description = "IAM role of each tenant, confined to that tenant's partitions and prefix."
  value       = { for tenant, role in aws_iam_role.tenant : tenant => role.arn }
}

output "kms_key_arn" {
  description = "The customer-managed key encrypting the memory stores."
  value       = aws_kms_key.memory.arn
}

output "decay_function_name" {
  description = "The scheduled decay Lambda."
  value       = aws_lambda_function.decay.function_name
}
