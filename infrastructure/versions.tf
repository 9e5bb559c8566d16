# Terraform and provider versions. The Knowledge Base's vector store is S3 Vectors: the AWS
# provider has aws_s3vectors_* since 6.24 and the index's metadata_configuration since later 6.x
# releases, hence the floor below for a deployment. Those resources are in modules/s3_vectors, so
# everything else also validates against 5.x (scripts/terraform_check.py, run by .ci/run).
terraform {
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.28, < 7.0"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = merge(var.tags, { "app" = "contract-memory-agent" })
  }
}

data "aws_caller_identity" "current" {}

data "aws_partition" "current" {}
