output "memory_bucket_name" {
  description = "The vector bucket of the memory backend's own searches (memory URL vector_bucket)."
  value       = aws_s3vectors_vector_bucket.memory.vector_bucket_name
}

output "memory_bucket_arn" {
  description = "Its ARN (tenant roles may list its indexes)."
  value       = aws_s3vectors_vector_bucket.memory.vector_bucket_arn
}

output "kb_index_arn" {
  description = "The Knowledge Base's vector index."
  value       = aws_s3vectors_index.kb.index_arn
}

output "knowledge_base_id" {
  description = "Bedrock Knowledge Base id (memory URL kb_id)."
  value       = aws_bedrockagent_knowledge_base.facts.id
}

output "knowledge_base_arn" {
  description = "Its ARN (tenant roles may retrieve from it)."
  value       = aws_bedrockagent_knowledge_base.facts.arn
}
